import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Browser tests in Debian's Chromium against the real `salaula serve` binary
 * (built by `make build`), on a fresh SQLite data folder. The folder is shared
 * with the tests through SALAULA_E2E_DATA so they can run `salaula admin`.
 */
const port = Number(process.env.SALAULA_E2E_PORT ?? 18555);
if (!process.env.SALAULA_E2E_DATA) {
  process.env.SALAULA_E2E_DATA = mkdtempSync(join(tmpdir(), 'salaula-e2e-'));
}
const binary = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/salaula');
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The service worker is tested by e2e/pwa.spec.ts, which allows it; elsewhere it would make
    // pages and images come from its caches, out of reach of page.route.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: `${binary} serve --http 127.0.0.1:${port} --data ${process.env.SALAULA_E2E_DATA}`,
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 30_000,
    env: {
      SALAULA_RATE_AUTH: '1000/1m',
      SALAULA_RATE_FORMS: '1000/1m',
      SALAULA_RATE_UPLOADS: '1000/1m',
      // The browser tests stand in for people on several devices with X-Forwarded-For.
      SALAULA_TRUST_PROXY: 'true',
    },
  },
});
