import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests in Debian's Chromium against the real `salaula serve` binary (built by
 * `make build`). Two workers, each with its own server on a free port and its own fresh SQLite
 * data folder (e2e/fixtures.ts), so that no test sees another worker's accounts, settings or
 * counts. A file's tests run in order in one worker, unless the file says otherwise.
 */
export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
  use: {
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
});
