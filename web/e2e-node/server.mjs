// Starts the real `salaula serve` (bin/salaula, built by `make build`) on a
// free port with a fresh data folder, for tests that use the real
// @supabase/supabase-js from npm against it.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
 * env adds environment variables; bin is another salaula binary to run (a
 * previous release's, for side-by-side benchmarks). Returns { url, dataDir, logs, stop }.
 */
export async function startServer(env = {}, bin = binary) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'salaula-node-'));
  const url = `http://127.0.0.1:${port}`;
  const logs = [];
  let run = await spawnHealthy(bin, port, dataDir, url, env, logs);
  return {
    url,
    dataDir,
    logs,
    /** restart stops the server (SIGTERM) and starts it again on the same port and data. */
    async restart() {
      run.child.kill('SIGTERM');
      await run.exited;
      run = await spawnHealthy(bin, port, dataDir, url, env, logs);
    },
    async stop() {
      run.child.kill('SIGTERM');
      await run.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function spawnHealthy(bin, port, dataDir, url, env, logs) {
  const child = spawn(bin, ['serve', '--http', `127.0.0.1:${port}`, '--data', dataDir], {
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

const root = resolve(here, '../..');

/**
 * startS3 runs Versity's S3 gateway (bin/tools/versitygw, from `make tools`)
 * over a temporary folder holding one bucket, and resolves with the
 * server's environment for it and stop().
 */
export async function startS3() {
  const gateway = join(root, 'bin', 'tools', 'versitygw');
  if (!existsSync(gateway)) throw new Error(`${gateway} is missing: run \`make tools\` (make test does it)`);
  const dir = mkdtempSync(join(tmpdir(), 'salaula-node-s3-'));
  const bucket = 'salaula-media';
  mkdirSync(join(dir, 'buckets', bucket), { recursive: true }); // a bucket is a folder of the posix backend
  const port = await freePort();
  const child = spawn(gateway, ['--access', 'node-access', '--secret', 'node-secret-key', '--port', `127.0.0.1:${port}`, 'posix', join(dir, 'buckets')], {
    stdio: 'ignore',
  });
  const exited = new Promise((ok) => child.on('exit', ok));
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('versitygw exited before it listened');
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error('versitygw did not listen within 20 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    env: {
      SALAULA_S3_BUCKET: bucket,
      SALAULA_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      SALAULA_S3_ACCESS_KEY: 'node-access',
      SALAULA_S3_SECRET_KEY: 'node-secret-key',
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * createDatabase makes a fresh PostgreSQL database on SALAULA_TEST_POSTGRES
 * (postgres@127.0.0.1:5432 by default) and resolves with its URL and drop().
 */
export function createDatabase(prefix) {
  const adminURL = process.env.SALAULA_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const u = new URL(adminURL);
  u.pathname = `/${name}`;
  u.searchParams.set('sslmode', 'disable');
  execFileSync('psql', [adminURL, '-qc', `CREATE DATABASE ${name}`]);
  return {
    url: u.toString(),
    drop() {
      execFileSync('psql', [adminURL, '-qc', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
    },
  };
}

/**
 * mediaBackends are the two ways a server keeps its data, for a suite to
 * run on each: SQLite with media on disk, and PostgreSQL (a fresh database
 * named from prefix) with media in a fresh S3 gateway. setup() resolves
 * with the server's environment and stop().
 */
export function mediaBackends(prefix) {
  return [
    { name: 'SQLite, media on disk', setup: async () => ({ env: {}, stop: async () => {} }) },
    {
      name: 'PostgreSQL, media in S3',
      setup: async () => {
        const db = createDatabase(prefix);
        const s3 = await startS3();
        return {
          env: { DATABASE_URL: db.url, ...s3.env },
          async stop() {
            await s3.stop();
            db.drop();
          },
        };
      },
    },
  ];
}
