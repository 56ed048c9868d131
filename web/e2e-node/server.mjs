// Starts the real `salaula serve` (bin/salaula, built by `make build`) on a
// free port with a fresh data folder, for tests that use the real
// @supabase/supabase-js from npm against it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
export const binary = process.env.SALAULA_BIN ?? resolve(here, '../../bin/salaula');

function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
    srv.on('error', fail);
  });
}

/**
 * startServer runs the binary and resolves once /healthz answers 200.
 * env adds environment variables. Returns { url, dataDir, logs, stop }.
 */
export async function startServer(env = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'salaula-node-'));
  const url = `http://127.0.0.1:${port}`;
  const logs = [];
  let run = await spawnHealthy(port, dataDir, url, env, logs);
  return {
    url,
    dataDir,
    logs,
    /** restart stops the server (SIGTERM) and starts it again on the same port and data. */
    async restart() {
      run.child.kill('SIGTERM');
      await run.exited;
      run = await spawnHealthy(port, dataDir, url, env, logs);
    },
    async stop() {
      run.child.kill('SIGTERM');
      await run.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function spawnHealthy(port, dataDir, url, env, logs) {
  const child = spawn(binary, ['serve', '--http', `127.0.0.1:${port}`, '--data', dataDir], {
    env: { ...process.env, SALAULA_RATE_AUTH: '1000/1m', SALAULA_RATE_FORMS: '1000/1m', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (b) => logs.push(b.toString()));
  child.stderr.on('data', (b) => logs.push(b.toString()));
  const exited = new Promise((ok) => child.on('exit', ok));
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`salaula exited early:\n${logs.join('')}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`salaula did not become healthy:\n${logs.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, exited };
}

/** clientFor builds a supabase-js client from the server's own /config.json. */
export async function configOf(url) {
  const res = await fetch(`${url}/config.json`);
  if (!res.ok) throw new Error(`/config.json answered ${res.status}`);
  return res.json();
}
