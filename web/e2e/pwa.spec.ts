import { expect as baseExpect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from './fixtures';

/**
 * Installable and usable offline: the web app manifest and the
 * service worker; with the network cut a page seen before still opens, one
 * never seen shows the offline page, and a waitlist sign-up typed offline is
 * sent by itself when the network returns and reaches the founders' export.
 *
 * Cutting the network: Playwright's offline mode (context.setOffline) makes
 * Chromium fail page loads before the service worker is asked, unlike a phone
 * that really lost its signal, so page loads go through a small TCP relay that
 * the test cuts; the form part also uses Playwright's offline mode, which is
 * what the page's online/offline events follow.
 */

test.use({ serviceWorkers: 'allow' });

/** The test machine is shared by several suites: give the page time to answer. */
const expect = baseExpect.configure({ timeout: 20_000 });

const binary = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/salaula');

/** waitlistExport is `salaula admin export waitlist` on the test server's data folder. */
function waitlistExport(): string {
  return execFileSync(binary, ['admin', 'export', 'waitlist', '--data', process.env.SALAULA_E2E_DATA!], { encoding: 'utf8' });
}

/** Relay forwards a local port to the test server until cut. */
class Relay {
  cut = false;
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  constructor(private readonly target: number) {
    this.server = createServer((client) => {
      if (this.cut) return void client.destroy();
      const upstream = createConnection(this.target, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
  }
  async start(): Promise<string> {
    await new Promise<void>((ok) => this.server.listen(0, '127.0.0.1', ok));
    const { port } = this.server.address() as { port: number };
    return `http://127.0.0.1:${port}`;
  }
  /** setCut drops every open connection and refuses new ones (or lets them through again). */
  setCut(cut: boolean) {
    this.cut = cut;
    if (cut) for (const s of this.sockets) s.destroy();
  }
  stop() {
    this.setCut(true);
    this.server.close();
  }
}

test('the app has a web app manifest with its icons, and registers a service worker', async ({ page }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBeTruthy();
  const res = await page.request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('application/manifest+json');
  const manifest = await res.json();
  expect(manifest).toMatchObject({ name: expect.stringContaining('Salaula'), short_name: 'Salaula', start_url: '/', display: 'standalone', theme_color: '#1b4332' });
  const sizes = manifest.icons.map((i: { sizes: string }) => i.sizes);
  expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
  expect(manifest.icons.some((i: { purpose?: string }) => i.purpose === 'maskable')).toBe(true);
  for (const icon of manifest.icons) {
    const img = await page.request.get(icon.src);
    expect(img.status(), icon.src).toBe(200);
    expect(img.headers()['content-type']).toBe('image/png');
  }

  const state = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    return { script: reg.active?.scriptURL, scope: reg.scope };
  });
  expect(state.script).toMatch(/\/sw\.js$/);
  expect(new URL(state.scope).pathname).toBe('/');
});

test('offline: a page seen opens, a page never seen shows the offline page, a waitlist sign-up is sent when back online', async ({ page, context, baseURL }) => {
  const email = `offline.${Date.now()}@example.com`;
  const relay = new Relay(Number(new URL(baseURL!).port));
  const site = await relay.start();
  test.info().attach('relay', { body: site });
  try {
    await page.goto(`${site}/wardrobeclearance`);
    await expect(page.getByRole('heading', { level: 1, name: 'Join Our Wardrobe Clearance Program' })).toBeVisible({ timeout: 30_000 });
    // The worker is installed (shell and public pages precached) and keeps this page.
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            const reg = await navigator.serviceWorker.ready;
            return reg.active?.state === 'activated' && Boolean(await (await caches.open('pages')).match('/wardrobeclearance'));
          }),
        { timeout: 30_000 },
      )
      .toBe(true);

    relay.setCut(true);

    // Never seen: the friendly offline page, not the browser's error.
    await page.goto(`${site}/about`);
    await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible();

    // Seen before: opens from the phone, with its form.
    await page.goto(`${site}/wardrobeclearance`);
    await expect(page.getByRole('heading', { level: 1, name: 'Join Our Wardrobe Clearance Program' })).toBeVisible({ timeout: 30_000 });
    await context.setOffline(true);
    const box = page.getByRole('textbox', { name: /Email address/ });
    await box.fill(email);
    await page.getByRole('button', { name: 'Join the Waitlist' }).click();
    await expect(page.getByText('No internet connection. We kept what you typed and will send it automatically as soon as you are back online.')).toBeVisible();
    await expect(box).toHaveValue(email);
    expect(waitlistExport()).not.toContain(email);

    // The network returns: the sign-up goes by itself and the spec's success message shows.
    relay.setCut(false);
    await context.setOffline(false);
    await expect(page.getByText("You're on the list!")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("We'll email you when ready.")).toBeVisible();
    await expect(box).toHaveValue('');
    const line = waitlistExport()
      .split('\n')
      .find((l) => l.includes(email));
    expect(line).toContain('Wardrobe Clearance Program');
  } finally {
    relay.stop();
  }
});
