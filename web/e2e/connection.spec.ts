import { expect as baseExpect, type Page } from '@playwright/test';
import { test } from './fixtures';

/**
 * Slow and lost connections, the parts not covered by pwa.spec.ts: sign-in and onboarding say
 * they need a connection when there is none (and keep what was typed); a new
 * version is picked up without mixing old and new code in one page; the
 * public pages' images are in a modern format at the size the screen needs.
 */

/** The test machine is shared by several suites: give the page time to answer. */
const expect = baseExpect.configure({ timeout: 20_000 });

const PASSWORD = 'Kabulonga-Thrift-2026!';

test('offline, sign-in and onboarding say they need a connection and keep what was typed', async ({ page, context }) => {
  test.setTimeout(120_000);
  await page.goto('/sign_up');
  await expect(page.getByRole('heading', { name: 'JOIN US!' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(/needs a connection/)).toHaveCount(0);

  await context.setOffline(true);
  await expect(page.getByRole('status').filter({ hasText: 'No internet connection. Creating an account needs a connection' })).toBeVisible();
  const email = `offline-signup-${Date.now()}@example.com`;
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'CREATE AN ACCOUNT' }).click();
  await expect(page.getByText(/internet connection/i).first()).toBeVisible();
  await expect(page).toHaveURL(/\/sign_up$/);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue(PASSWORD);

  // Back online: the notice goes and the same form creates the account.
  await context.setOffline(false);
  await expect(page.getByText(/needs a connection/)).toHaveCount(0);
  await page.getByRole('button', { name: 'CREATE AN ACCOUNT' }).click();
  await expect(page).toHaveURL(/\/select_role$/);

  await page.getByRole('button', { name: /Become a Buyer/ }).click();
  await page.getByRole('button', { name: 'PROCEED' }).click();
  await expect(page.getByRole('heading', { name: 'Create Your Buyer Profile' })).toBeVisible();
  await page.getByLabel('Full name', { exact: true }).fill('Mutale Zulu');
  await context.setOffline(true);
  await expect(page.getByRole('status').filter({ hasText: 'No internet connection. Signing up needs a connection' })).toBeVisible();
  await page.getByRole('button', { name: 'DONE' }).click();
  await expect(page).toHaveURL(/\/buyersignup/);
  await expect(page.getByLabel('Full name', { exact: true })).toHaveValue('Mutale Zulu');
  await context.setOffline(false);
  await expect(page.getByText(/needs a connection/)).toHaveCount(0);
});

/** The asset URLs (scripts and module preloads) the page's HTML names. */
async function htmlAssets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>('script[src], link[rel="modulepreload"]')).map(
      (e) => new URL('src' in e && e.src ? e.src : (e as HTMLLinkElement).href).pathname,
    ),
  );
}

test('after a new version is deployed, a page still open loads the new version whole instead of old chunks that are gone', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Sign in' }).or(page.getByRole('link', { name: /account/i })).first()).toBeVisible();
  const first = await htmlAssets(page);
  expect(first.length).toBeGreaterThan(0);

  // The deploy: the server no longer has this version's sign-in chunk (its name is hashed): every
  // request for it from the page still open fails (its modulepreload and its import alike, as
  // on a real server; a chunk with a stylesheet is asked for twice). A page load then gets the
  // new version, whose chunks the server has (here: the same ones again).
  // The new version starts with the page's next document request: the chunk requests of the page
  // loaded again (which may come before its load event) are the new version's.
  let loads = 0;
  page.on('request', (req) => {
    if (req.isNavigationRequest() && req.frame() === page.mainFrame()) loads++;
  });
  const gone = new Set<string>();
  await page.route(/\/assets\/SignInPage-[\w-]+\.js$/, async (route) => {
    if (loads > 0) return route.continue();
    gone.add(new URL(route.request().url()).pathname);
    await route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
  });
  // An in-app move to the sign-in page (no page load), as the header's link does.
  await page.evaluate(() => {
    history.pushState(null, '', '/sign_up');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  // The old chunk failed: the page loaded /sign_up again, whole, instead of showing an error.
  await expect.poll(() => loads).toBe(1);
  expect(gone.size).toBe(1);
  await expect(page.getByRole('heading', { name: 'JOIN US!' })).toBeVisible();
  await expect(page).toHaveURL(/\/sign_up$/);
  expect(loads).toBe(1);
});

/** The public pages Lighthouse is run on. */
const PUBLIC_PAGES = ['/', '/about', '/impact', '/contact', '/wardrobeclearance', '/sign_up', '/buyersignup', '/sellersignup'];

// Lighthouse's best practices count an error in the console against a page:
// a visitor without a session opening a page that needs one (/buyersignup)
// is sent to sign in without asking the server for a profile first.
test('the public pages load without a failed request or an error in the console', async ({ page }) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${page.url()}: console: ${m.text()}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`${page.url()}: ${res.status()} ${res.url()}`);
  });
  for (const path of PUBLIC_PAGES) {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
  }
  expect(problems).toEqual([]);
});

/** A Lighthouse mobile phone: 412 px wide at a device pixel ratio of 1.75. */
test.describe('images on the public pages', () => {
  test.use({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });

  test('are in a modern format (WebP or SVG) and no larger than the screen needs', async ({ page }) => {
    test.setTimeout(240_000);
    const sizes = new Map<string, { type: string; bytes: number }>();
    page.on('response', async (res) => {
      const type = res.headers()['content-type'] ?? '';
      if (!type.startsWith('image/')) return;
      const body = await res.body().catch(() => Buffer.alloc(0));
      sizes.set(new URL(res.url()).pathname, { type, bytes: body.length });
    });
    const findings: string[] = [];
    let raster = 0;
    for (const path of PUBLIC_PAGES) {
      await page.goto(path);
      await expect(page.locator('main')).toBeVisible({ timeout: 60_000 });
      // Scroll through the page so lazy images load, then back.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0; y < height; y += 600) await page.evaluate((top) => window.scrollTo(0, top), y);
      await page.waitForLoadState('networkidle');
      const images = await page.evaluate(() =>
        Array.from(document.images)
          .filter((img) => img.complete && img.naturalWidth > 0 && img.getBoundingClientRect().width > 0)
          .map((img) => ({
            src: img.currentSrc || img.src,
            natural: [img.naturalWidth, img.naturalHeight],
            shown: [img.getBoundingClientRect().width, img.getBoundingClientRect().height],
          })),
      );
      for (const img of images) {
        const url = new URL(img.src, page.url());
        if (url.protocol === 'data:') continue;
        const got = sizes.get(url.pathname);
        const type = got?.type ?? '';
        if (!/^image\/(webp|avif|svg\+xml)/.test(type)) findings.push(`${path}: ${url.pathname} is ${type || 'of unknown type'}`);
        if (type.startsWith('image/svg')) continue;
        raster++;
        // Lighthouse's "properly size images": the bytes beyond what the shown size at this
        // pixel ratio needs, flagged above 4 KiB.
        const needed = img.shown[0] * 1.75 * img.shown[1] * 1.75;
        const wasted = (got?.bytes ?? 0) * Math.max(0, 1 - needed / (img.natural[0] * img.natural[1]));
        if (wasted > 4096) {
          findings.push(`${path}: ${url.pathname} is ${img.natural.join('x')} shown at ${img.shown.map((n) => Math.round(n * 1.75)).join('x')} (${Math.round(wasted / 1024)} KiB too many)`);
        }
      }
    }
    expect(findings).toEqual([]);
    // The check saw the pages' photos (brand strip, team portraits), not only drawings.
    expect(raster).toBeGreaterThan(5);
    console.log(`public pages: ${raster} raster images checked, all WebP and sized for the screen`);
  });
});
