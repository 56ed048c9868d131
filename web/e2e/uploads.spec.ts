import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { acceptAlert, chooseRole, expect, makePictures, profileMe, signUp, storedImages } from './onboard';
import { test } from './slowPhone';

/**
 * Photos upload as soon as they are picked, on a 360 px phone on the slow
 * link (slowPhone.ts) against the real server: a file that is not a photo is refused at once by name; three
 * photos go up two at a time while the form is filled in, each with its
 * progress; an upload cut off by the network is tried again by itself; one
 * that keeps failing is sent again with Try again; a removed photo's upload
 * stops; and the form is sent as soon as the uploads are done.
 */

test.describe.configure({ timeout: 150_000 });

const STORAGE = '**/storage/v1/object/user-media/**';
const pathOf = (url: string) => new URL(url).pathname;
const publicPath = (path: string) => path.replace('/object/user-media/', '/object/public/user-media/');

/** watchUploads lists the path of every upload request, in order. */
function watchUploads(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/storage/v1/object/user-media/')) paths.push(pathOf(r.url()));
  });
  return paths;
}

/**
 * countUploading keeps, in the page, the most photos shown as uploading at
 * the same moment (read it with mostUploading).
 */
async function countUploading(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { mostUploading: number };
    w.mostUploading = 0;
    new MutationObserver(() => {
      const states = Array.from(document.querySelectorAll('[data-testid="upload-state"]'));
      w.mostUploading = Math.max(w.mostUploading, states.filter((e) => e.textContent?.startsWith('Uploading')).length);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

const mostUploading = (page: Page) => page.evaluate(() => (window as unknown as { mostUploading: number }).mostUploading);

/** fillBuyerForm fills in every field of /buyersignup but the photos. */
async function fillBuyerForm(page: Page, name: string) {
  await page.getByLabel('Full name', { exact: true }).fill(name);
  await page.getByLabel('Height', { exact: true }).fill('168 cm');
  await page.getByLabel('Waist size', { exact: true }).fill('30 in');
  await page.getByLabel('Location', { exact: true }).fill('Matero, Lusaka');
  await page.getByLabel('Age', { exact: true }).fill('26');
  await page.getByLabel('Phone number', { exact: true }).fill('0961234567');
  await page.getByLabel('Describe the clothes you like', { exact: true }).fill('Chitenge dresses and denim jackets');
  await page.getByRole('radio', { name: 'Female' }).click();
  await page.getByRole('checkbox', { name: 'DENIM WEAR' }).click();
  await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();
}

const THREE_PHOTOS = [
  { name: 'front.jpg', width: 3000, height: 4000, type: 'image/jpeg' },
  { name: 'side view.png', width: 600, height: 900, type: 'image/png' },
  { name: 'back.jpg', width: 480, height: 640, type: 'image/jpeg' },
] as const;

test('on slow mobile data, photos upload as they are picked, two at a time, a cut one again by itself, and the form goes when they are done', async ({ page, request }) => {
  await signUp(page, `uploads-${Date.now()}@example.com`);
  await chooseRole(page, 'Become a Buyer');
  await expect(page.getByRole('heading', { name: 'Create Your Buyer Profile' })).toBeVisible();
    const uploads = watchUploads(page);
  await countUploading(page);
  // The first upload request is cut off, as a weak signal does; the back photo's is held until
  // the form has been sent, so the form has to wait for it.
  let cut = '';
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route(STORAGE, async (route) => {
    const path = pathOf(route.request().url());
    if (!cut) {
      cut = path;
      await route.abort('connectionreset');
      return;
    }
    if (/-back\.\w+$/.test(path)) await held;
    await route.continue();
  });
  await fillBuyerForm(page, 'Mutinta Banda');
  const input = page.getByLabel('Add full-body photos');

  // A file that is not a photo is refused the moment it is picked, by name, and nothing is sent.
  await input.setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 a list of sizes') });
  await expect(page.getByRole('alert')).toHaveText('\u201cnotes.pdf\u201d is not a photo: choose a JPEG, PNG or WebP picture.');
  await expect(page.getByRole('img', { name: /^Photo \d preview$/ })).toHaveCount(0);
  expect(uploads).toEqual([]);

  // Three photos start uploading at once, before the form is sent, each with its own progress.
  const photos = await makePictures(page, [...THREE_PHOTOS]);
  await input.setInputFiles(photos);
  await expect(page.getByRole('img', { name: /^Photo \d preview$/ })).toHaveCount(3);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByTestId('upload-state').filter({ hasText: 'Connection lost: trying again (1 of 3)...' })).toBeVisible();
  const bar = page.getByRole('progressbar', { name: /^Photo \d upload progress$/ }).first();
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute('aria-valuetext', /^\d+%$/);
  const axe = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expect(uploads.length).toBeGreaterThan(0);

  // Sent while photos still upload, the form waits for them and says so.
  const alerted = acceptAlert(page);
  const sentAt = Date.now();
  await page.getByRole('button', { name: 'DONE' }).click();
  await expect(page.getByRole('button', { name: 'WAITING FOR UPLOADS...' })).toBeDisabled();
  await expect(page.getByRole('status').filter({ hasText: /^The form is sent as soon as (the last upload finishes|\d uploads finish)\.$/ })).toBeVisible();
  release();
  expect(await alerted).toBe('Profile created successfully!');
  await expect(page).toHaveURL(/\/thanks$/);
  console.log(`${((Date.now() - sentAt) / 1000).toFixed(1)} s from DONE to /thanks`);

  // Never more than two photos uploading at once, and two did go together.
  expect(await mostUploading(page)).toBe(2);
  // Three photos and one retry of the cut one, at a path of its own.
  expect(uploads).toHaveLength(4);
  const retried = uploads.slice(1).find((p) => p.replace(/\/\d+-/, '/') === cut.replace(/\/\d+-/, '/'));
  expect(retried).toBeDefined();
  expect(retried).not.toBe(cut);

  const profile = await profileMe(page, request);
  const urls = profile.body_photo_urls as string[];
  expect(urls.map((u) => new URL(u).pathname.replace(/.*\/\d+-/, ''))).toEqual(['front.webp', 'side-view.webp', 'back.jpg']);
  expect(urls.map(pathOf)).toContain(publicPath(retried!));
  const stored = await storedImages(page, request, urls);
  // The 3000 x 4000 photo was shrunk in the browser before it was sent.
  expect(stored[0]).toMatchObject({ width: 1200, height: 1600 });
  // The cut-off attempt stored nothing.
  expect((await request.get(publicPath(cut))).status()).toBe(404);
});

test('a photo that keeps failing is sent again with Try again; a removed photo stops uploading and is not sent', async ({ page, request }) => {
  await signUp(page, `try-again-${Date.now()}@example.com`);
  await chooseRole(page, 'Become a Buyer');
  await expect(page.getByRole('heading', { name: 'Create Your Buyer Profile' })).toBeVisible();
  const uploads = watchUploads(page);
  // The side view is cut off every time until the signal comes back; the back photo's upload is held.
  let signal = false;
  await page.route(STORAGE, async (route) => {
    const path = pathOf(route.request().url());
    if (/-side-view\.\w+$/.test(path) && !signal) {
      await route.abort('internetdisconnected');
      return;
    }
    if (/-back\.\w+$/.test(path)) await new Promise((r) => setTimeout(r, 3000));
    // The page may have stopped the request meanwhile.
    await route.continue().catch(() => {});
  });
  await fillBuyerForm(page, 'Natasha Phiri');
  await page.getByLabel('Add full-body photos').setInputFiles(await makePictures(page, [...THREE_PHOTOS]));

  // Removing the back photo while it uploads stops its upload.
  await expect(page.getByRole('progressbar', { name: 'Photo 3 upload progress' })).toBeVisible();
  const stopped = page.waitForEvent('requestfailed', (r) => /-back\.\w+$/.test(r.url()));
  await page.getByRole('button', { name: 'Remove photo 3 (back.jpg)' }).click();
  const back = pathOf((await stopped).url());
  await expect(page.getByRole('img', { name: /^Photo \d preview$/ })).toHaveCount(2);

  // The side view fails after its three automatic retries, says why, and offers Try again.
  const states = page.getByTestId('upload-state');
  await expect(states).toHaveText(['Uploaded', 'Failed'], { timeout: 30_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'The connection was lost during the upload.' })).toBeVisible();
  expect(uploads.filter((p) => /-side-view\.\w+$/.test(p))).toHaveLength(4);

  // The form is not sent while a photo has failed: the banner names it and says what to do.
  const done = page.getByRole('button', { name: 'DONE' });
  await done.click();
  await expect(
    page.getByText('Photo 2 (side view.png) did not upload: The connection was lost during the upload. Try again or remove it, then send the form again.'),
  ).toBeVisible();

  signal = true;
  await page.getByRole('button', { name: 'Try again: photo 2' }).click();
  await expect(states).toHaveText(['Uploaded', 'Uploaded']);
  const alerted = acceptAlert(page);
  await done.click();
  expect(await alerted).toBe('Profile created successfully!');
  await expect(page).toHaveURL(/\/thanks$/);

  const profile = await profileMe(page, request);
  const urls = profile.body_photo_urls as string[];
  expect(urls.map((u) => new URL(u).pathname.replace(/.*\/\d+-/, ''))).toEqual(['front.webp', 'side-view.webp']);
  await storedImages(page, request, urls);
  // Picking was done once: the side view went five times, the front once, the back never arrived.
  expect(uploads.filter((p) => /-side-view\.\w+$/.test(p))).toHaveLength(5);
  expect(uploads.filter((p) => /-front\.\w+$/.test(p))).toHaveLength(1);
  expect((await request.get(publicPath(back))).status()).toBe(404);
});
