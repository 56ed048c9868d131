import { expect as baseExpect, type CDPSession, type Page } from '@playwright/test';
import { test as base } from './fixtures';

/**
 * The phone of the shoppers' walkthroughs: a 360 px Android phone on a slow
 * mobile link, 400 kbps each way with 400 ms round trips, throttled in
 * Chromium with CDP Network.emulateNetworkConditions. Every test that uses
 * this `test` gets the phone, and its `page` the slow link. setOffline cuts
 * the page's link (and gives it back still slow); the service worker keeps
 * its own, as on a phone whose signal came back before the page noticed.
 */

/** The slow link, in CDP's units (bytes per second, milliseconds). */
export const SLOW_LINK = { latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 };

const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';

const links = new WeakMap<Page, CDPSession>();

/** throttle puts page on the slow link (offline: no link at all). */
async function throttle(page: Page, offline = false) {
  let cdp = links.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    links.set(page, cdp);
  }
  await cdp.send('Network.emulateNetworkConditions', { offline, ...SLOW_LINK });
}

/** setOffline cuts page's link, or gives it back on the slow link. */
export function setOffline(page: Page, offline: boolean): Promise<void> {
  return throttle(page, offline);
}

/** test is Playwright's, on the phone and the slow link. */
export const test = base.extend({
  viewport: { width: 360, height: 740 },
  userAgent: ANDROID_UA,
  isMobile: true,
  hasTouch: true,
  page: async ({ page }, provide) => {
    await throttle(page);
    await provide(page);
  },
});

/** expect waits as long as a slow link and a shared machine need. */
export const expect = baseExpect.configure({ timeout: 30_000 });
