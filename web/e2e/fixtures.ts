import { test as base } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The browser tests' `test`: each Playwright worker starts its own `salaula serve` (bin/salaula,
 * built by `make build`) on a free port with a fresh SQLite data folder, so that two workers share
 * no account, setting or count. baseURL is that server's address. A worker is a process of its own:
 * SALAULA_E2E_DATA, in its environment, names its server's data folder, for the tests that run
 * `salaula admin` on it. The folder is removed when the worker ends.
 */
export const test = base.extend<object, { server: { url: string } }>({
  server: [
    // Playwright reads a fixture's needs from its first parameter, which must be an object pattern;
    // the second, Playwright's `use`, is named otherwise for React's hook rules in ESLint.
    // eslint-disable-next-line no-empty-pattern
    async ({}, provide) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'salaula-e2e-'));
      process.env.SALAULA_E2E_DATA = dataDir;
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const child = spawn(binary, ['serve', '--http', `127.0.0.1:${port}`, '--data', dataDir], {
        env: { ...process.env, ...serverEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const logs: string[] = [];
      child.stdout.on('data', (b: Buffer) => logs.push(b.toString()));
      child.stderr.on('data', (b: Buffer) => logs.push(b.toString()));
      const exited = new Promise((ok) => child.once('exit', ok));
      try {
        await healthy(url, () => child.exitCode !== null, logs);
        await provide({ url });
      } finally {
        child.kill('SIGTERM');
        await exited;
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', auto: true, timeout: 60_000 },
  ],
  baseURL: async ({ server }, provide) => provide(server.url),
});

const binary = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/salaula');

/** The server's environment beside the run's own. */
const serverEnv = {
  SALAULA_RATE_AUTH: '1000/1m',
  SALAULA_RATE_FORMS: '1000/1m',
  SALAULA_RATE_UPLOADS: '1000/1m',
  // The browser tests stand in for people on several devices with X-Forwarded-For.
  SALAULA_TRUST_PROXY: 'true',
};

/** freePort is a TCP port on 127.0.0.1 nobody listens on. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => ok(port));
    });
  });
}

/** healthy resolves once url/healthz answers 200; it fails when the server exits or 30 s pass. */
async function healthy(url: string, exited: () => boolean, logs: string[]) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited()) throw new Error(`salaula exited before it answered:\n${logs.join('')}`);
    try {
      if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`salaula did not answer ${url}/healthz within 30 s:\n${logs.join('')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
