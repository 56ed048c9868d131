import { expect as baseExpect, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { test } from './fixtures';

/**
 * Onboarding end to end against the real server: a new account signs up on
 * /sign_up, completes the buyer flow with three photos (or the seller flow
 * with two logos), lands on /thanks; get-profile-me then shows the role and
 * the stored images; signing in again sends the account to /index.
 */

const PASSWORD = 'Kabulonga-Thrift-2026!';
// Several test runs share a small machine: give pages time to load.
const expect = baseExpect.configure({ timeout: 15_000 });

/** A picture made in the browser: a gradient with shapes, like a photo, of the given size and type. */
interface PictureSpec {
  name: string;
  width: number;
  height: number;
  type: 'image/png' | 'image/jpeg';
}

async function makePictures(page: Page, specs: PictureSpec[]) {
  const encoded = await page.evaluate(async (all) => {
    const out: string[] = [];
    for (const s of all) {
      const canvas = new OffscreenCanvas(s.width, s.height);
      const ctx = canvas.getContext('2d')!;
      const g = ctx.createLinearGradient(0, 0, s.width, s.height);
      g.addColorStop(0, '#2d6a4f');
      g.addColorStop(1, '#f4a261');
      ctx.fillStyle = g;
      ctx.fillRect(0, 0, s.width, s.height);
      for (let i = 0; i < 60; i++) {
        ctx.fillStyle = `hsl(${(i * 37) % 360} 70% 50% / 0.6)`;
        ctx.beginPath();
        ctx.arc((i * 97) % s.width, (i * 61) % s.height, 10 + ((i * 13) % (s.width / 6)), 0, Math.PI * 2);
        ctx.fill();
      }
      // Fine grain, as a camera sensor gives, so the file is photo-sized.
      const grain = ctx.getImageData(0, 0, s.width, s.height);
      for (let p = 0; p < grain.data.length; p += 4) {
        const n = ((p * 2654435761) >>> 24) % 24;
        grain.data[p] += n;
        grain.data[p + 1] += n;
        grain.data[p + 2] += n;
      }
      ctx.putImageData(grain, 0, 0);
      const blob = await canvas.convertToBlob({ type: s.type, quality: 0.95 });
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let bin = '';
      for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      out.push(btoa(bin));
    }
    return out;
  }, specs);
  return specs.map((s, i) => ({ name: s.name, mimeType: s.type, buffer: Buffer.from(encoded[i], 'base64') }));
}

/** Signs a new account up on /sign_up; the app then asks for a role. */
async function signUp(page: Page, email: string) {
  await page.goto('/sign_up');
  await expect(page.getByRole('heading', { name: 'JOIN US!' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'CREATE AN ACCOUNT' }).click();
  await expect(page).toHaveURL(/\/select_role$/);
}

/** Chooses a role on /select_role and proceeds to its signup form. */
async function chooseRole(page: Page, card: 'Become a Buyer' | 'Become a Seller') {
  await page.getByRole('button', { name: new RegExp(card) }).click();
  await page.getByRole('button', { name: 'PROCEED' }).click();
}

/** Signs out (forgets the stored session) and signs in again on /sign_up. */
async function signInAgain(page: Page, email: string) {
  await page.evaluate(() => localStorage.clear());
  await page.goto('/sign_up');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'WELCOME BACK!' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'SIGN IN' }).click();
}

/** The stored session's access token (supabase-js keeps it in localStorage). */
async function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => /^sb-.*-auth-token$/.test(k));
    return key ? (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token : '';
  });
}

/** Calls get-profile-me with the page's session, as the app does. */
async function profileMe(page: Page, request: APIRequestContext) {
  const token = await accessToken(page);
  expect(token).not.toBe('');
  const { anonKey } = (await (await request.get('/config.json')).json()) as { anonKey: string };
  const res = await request.post('/functions/v1/get-profile-me', {
    headers: { Authorization: `Bearer ${token}`, apikey: anonKey, 'Content-Type': 'application/json' },
    data: {},
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** Checks that each URL serves an image no wider or taller than 1600 px; returns their sizes. */
async function storedImages(page: Page, request: APIRequestContext, urls: string[]) {
  const out: Array<{ bytes: number; type: string; width: number; height: number }> = [];
  for (const url of urls) {
    const res = await request.get(url);
    expect(res.status()).toBe(200);
    expect(res.headers()['x-content-type-options']).toBe('nosniff');
    const size = await page.evaluate(async (u) => {
      const img = new Image();
      img.src = u;
      await img.decode();
      return { width: img.naturalWidth, height: img.naturalHeight };
    }, url);
    expect(Math.max(size.width, size.height)).toBeLessThanOrEqual(1600);
    out.push({ bytes: (await res.body()).length, type: res.headers()['content-type'], ...size });
  }
  return out;
}

test.describe('onboarding', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a new buyer on a 360 px phone completes the four steps with three photos and lands on /thanks', async ({ page, request }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const email = `buyer-${Date.now()}@example.com`;
    await signUp(page, email);
    await chooseRole(page, 'Become a Buyer');
    await expect(page).toHaveURL(/\/buyersignup\?role=buyer$/);
    await expect(page.getByRole('heading', { name: 'Create Your Buyer Profile' })).toBeVisible();
    const axe = await new AxeBuilder({ page }).include('main').analyze();
    expect(axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')).toEqual([]);

    await page.getByLabel('Full name', { exact: true }).fill('Chipo Mwale');
    await page.getByLabel('Height', { exact: true }).fill('165 cm');
    await page.getByLabel('Waist size', { exact: true }).fill('28 in');
    await page.getByLabel('Location', { exact: true }).fill('Kabulonga, Lusaka');
    await page.getByLabel('Age', { exact: true }).fill('24');
    await page.getByLabel('Inspiration', { exact: true }).selectOption('Historical eras e.g. 90s');
    await page.getByLabel('Phone number', { exact: true }).fill('097 123 4567');
    await page.getByLabel('Describe the clothes you like', { exact: true }).fill('Bright chitenge prints and vintage denim');
    await expect(page.getByRole('button', { name: 'Voice input (not available yet)' })).toBeDisabled();
    await page.getByRole('radio', { name: 'Female' }).click();

    const photos = await makePictures(page, [
      { name: 'front.jpg', width: 3000, height: 4000, type: 'image/jpeg' },
      { name: 'side view.png', width: 600, height: 900, type: 'image/png' },
      { name: 'back.jpg', width: 480, height: 640, type: 'image/jpeg' },
    ]);
    await page.getByLabel('Add full-body photos').setInputFiles(photos);
    await expect(page.getByRole('img', { name: /^Photo \d preview$/ })).toHaveCount(3);
    await expect(page.getByRole('button', { name: /Add full-body photos \(3\/3\)/ })).toBeDisabled();

    await page.getByRole('checkbox', { name: 'DENIM WEAR' }).click();
    await page.getByRole('checkbox', { name: 'RETRO OUTFITS' }).click();
    await expect(page.getByRole('checkbox', { name: 'DENIM WEAR' })).toHaveAttribute('aria-checked', 'true');
    await page.getByRole('checkbox', { name: 'Join the Wardrobe Clearance Program' }).check();
    await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    const dialog = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.message());
        void d.accept();
      }),
    );
    await page.getByRole('button', { name: 'DONE' }).click();
    expect(await dialog).toBe('Profile created successfully!');
    await expect(page).toHaveURL(/\/thanks$/);

    const profile = await profileMe(page, request);
    expect(profile).toMatchObject({
      role: 'buyer',
      full_name: 'Chipo Mwale',
      phone_number: '+260971234567',
      gender: 'Female',
      clothing_aesthetics: ['DENIM WEAR', 'RETRO OUTFITS'],
      wants_clearance_program: true,
    });
    const urls = profile.body_photo_urls as string[];
    expect(urls).toHaveLength(3);
    expect(profile.profile_pic_url).toBe(urls[0]);
    const stored = await storedImages(page, request, urls);
    // The 3000 x 4000 photo was shrunk in the browser before upload (the server only strips metadata).
    expect(stored[0]).toMatchObject({ width: 1200, height: 1600 });
    expect(stored[0].bytes).toBeLessThan(photos[0].buffer.length / 4);
    // A small photo already under 1600 px and 300 KB is sent as it is.
    expect(stored[2]).toMatchObject({ width: 480, height: 640, type: 'image/jpeg' });
    console.log(
      `buyer photos: picked ${photos.map((p) => p.buffer.length).join(', ')} bytes; ` +
        `stored ${stored.map((s) => `${s.width}x${s.height} ${s.type} ${s.bytes}`).join(', ')}`,
    );

    await signInAgain(page, email);
    await expect(page).toHaveURL(/\/index$/);
  });

  test('a photo whose upload fails shows why with Retry; the retry alone is sent and the onboarding completes', async ({ page, request }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const email = `retry-${Date.now()}@example.com`;
    await signUp(page, email);
    await chooseRole(page, 'Become a Buyer');
    await expect(page.getByRole('heading', { name: 'Create Your Buyer Profile' })).toBeVisible();

    // Every upload request, by file; the first one of the second photo is cut off (as a weak
    // signal does), and the first photo's is held a moment so its progress bar can be seen.
    const attempts: string[] = [];
    let cutOnce = false;
    await page.route('**/storage/v1/object/user-media/**', async (route) => {
      const path = new URL(route.request().url()).pathname;
      attempts.push(path);
      if (/-side-view\.\w+$/.test(path) && !cutOnce) {
        cutOnce = true;
        await route.abort('connectionreset');
        return;
      }
      if (/-front\.\w+$/.test(path)) await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });

    await page.getByLabel('Full name', { exact: true }).fill('Natasha Phiri');
    await page.getByLabel('Height', { exact: true }).fill('170 cm');
    await page.getByLabel('Waist size', { exact: true }).fill('30 in');
    await page.getByLabel('Location', { exact: true }).fill('Chelstone, Lusaka');
    await page.getByLabel('Age', { exact: true }).fill('29');
    await page.getByLabel('Phone number', { exact: true }).fill('0971234567');
    await page.getByLabel('Describe the clothes you like', { exact: true }).fill('Denim and bright prints');
    await page.getByRole('radio', { name: 'Female' }).click();
    const photos = await makePictures(page, [
      { name: 'front.jpg', width: 1200, height: 1600, type: 'image/jpeg' },
      { name: 'side view.png', width: 600, height: 900, type: 'image/png' },
      { name: 'back.jpg', width: 480, height: 640, type: 'image/jpeg' },
    ]);
    await page.getByLabel('Add full-body photos').setInputFiles(photos);
    await page.getByRole('checkbox', { name: 'DENIM WEAR' }).click();
    await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();

    const done = page.getByRole('button', { name: 'DONE' });
    await done.click();
    // While a photo uploads it has a labelled progress bar with its percentage.
    await expect(page.getByRole('progressbar', { name: 'Photo 1 upload progress' })).toBeVisible();
    const lost = 'The connection was lost during the upload. Check your connection and retry.';
    await expect(page.getByText(lost).first()).toBeVisible();
    await expect(page.getByTestId('upload-state')).toHaveText(['Uploaded', 'Failed', 'Uploaded']);
    await expect(page.getByRole('alert').filter({ hasText: lost }).first()).toBeVisible();
    await expect(page).toHaveURL(/\/buyersignup/);
    expect(attempts).toHaveLength(3);

    // Sending again is refused until the failed photo is retried or removed.
    await done.click();
    await expect(page.getByText('Photo 2 did not upload. Retry it or remove it, then submit again.')).toBeVisible();
    expect(attempts).toHaveLength(3);

    await page.getByRole('button', { name: 'Retry photo 2' }).click();
    await expect(page.getByTestId('upload-state')).toHaveText(['Uploaded', 'Uploaded', 'Uploaded']);
    await expect(page.getByRole('button', { name: /^Retry/ })).toHaveCount(0);
    expect(attempts).toHaveLength(4);
    expect(attempts[3]).toMatch(/-side-view\.\w+$/);
    expect(attempts[3]).not.toBe(attempts[1]);

    const dialog = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.message());
        void d.accept();
      }),
    );
    await done.click();
    expect(await dialog).toBe('Profile created successfully!');
    await expect(page).toHaveURL(/\/thanks$/);
    // The photos uploaded before the failure were not sent again.
    expect(attempts).toHaveLength(4);

    const profile = await profileMe(page, request);
    const urls = profile.body_photo_urls as string[];
    expect(urls.map((u) => new URL(u).pathname.replace('/object/public/', '/object/'))).toEqual([attempts[0], attempts[3], attempts[2]]);
    await storedImages(page, request, urls);
    // The cut-off attempt stored nothing.
    const cut = await request.get(attempts[1].replace('/object/', '/object/public/'));
    expect(cut.status()).toBe(404);
  });

  test("on a 360 px phone, the seller form's empty submit leaves the first wrong field focused and in view", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await signUp(page, `seller-empty-${Date.now()}@example.com`);
    await chooseRole(page, 'Become a Seller');
    await expect(page).toHaveURL(/\/sellersignup\?role=seller$/);
    // Submit from the bottom of the form, as a person who scrolled down does.
    const submit = page.getByRole('button', { name: 'FINISH & CREATE PROFILE' });
    await submit.scrollIntoViewIfNeeded();
    await submit.click();
    const first = page.getByLabel('Full name', { exact: true });
    await expect(first).toBeFocused();
    await expect(first).toBeInViewport();
    await expect(first).toHaveAttribute('aria-invalid', 'true');
    // The error summary is announced: it is an alert with the messages.
    await expect(page.getByRole('alert').filter({ hasText: 'Full name is required' })).toBeVisible();
  });

  test('a new seller completes the seller form with two logos and lands on /thanks', async ({ page, request }) => {
    const email = `seller-${Date.now()}@example.com`;
    await signUp(page, email);
    await chooseRole(page, 'Become a Seller');
    await expect(page).toHaveURL(/\/sellersignup\?role=seller$/);
    await expect(page.getByRole('heading', { name: 'Create Your Seller Profile' })).toBeVisible();
    const axe = await new AxeBuilder({ page }).include('main').analyze();
    expect(axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')).toEqual([]);

    // The spec's rules answer first, per field.
    await page.getByRole('button', { name: 'FINISH & CREATE PROFILE' }).click();
    await expect(page.getByLabel('Business name', { exact: true })).toHaveAccessibleDescription('Business name is required');

    await page.getByLabel('Full name', { exact: true }).fill('Mwila Banda');
    await page.getByLabel('Phone number', { exact: true }).fill('0961234567');
    await page.getByLabel('Location', { exact: true }).fill('Kamwala Market, Lusaka');
    await page.getByLabel('Age', { exact: true }).fill('31');
    await page.getByRole('radio', { name: 'Male', exact: true }).click();
    await page.getByLabel('Business name', { exact: true }).fill('Mwila Thrift');
    await page.getByLabel('Registration number (optional)').fill('PACRA 120190012345');
    await page.getByRole('radio', { name: /Street Vendor/ }).check();
    const logos = await makePictures(page, [
      { name: 'logo.png', width: 512, height: 512, type: 'image/png' },
      { name: 'shop front.jpg', width: 2400, height: 1600, type: 'image/jpeg' },
    ]);
    await page.getByLabel('Add logo or brand images').setInputFiles(logos);
    await expect(page.getByRole('img', { name: /^Logo \d preview$/ })).toHaveCount(2);
    await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();

    const dialog = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.message());
        void d.accept();
      }),
    );
    await page.getByRole('button', { name: 'FINISH & CREATE PROFILE' }).click();
    expect(await dialog).toBe('Seller profile created successfully!');
    await expect(page).toHaveURL(/\/thanks$/);

    const profile = await profileMe(page, request);
    expect(profile).toMatchObject({
      role: 'seller',
      business_name: 'Mwila Thrift',
      registration_number: 'PACRA 120190012345',
      business_mode: 'Street Vendor',
      phone_number: '+260961234567',
    });
    const urls = profile.logo_urls as string[];
    expect(urls).toHaveLength(2);
    for (const url of urls) expect(url).toMatch(/\/storage\/v1\/object\/public\/user-media\/[^/]+\/logos\/\d+-/);
    await storedImages(page, request, urls);

    await signInAgain(page, email);
    await expect(page).toHaveURL(/\/index$/);
  });

  test('a visitor without a session is sent to /sign_up and back to the page after', async ({ page }) => {
    await page.goto('/buyerandsellersignup');
    await expect(page).toHaveURL(/\/sign_up\?next=%2Fbuyerandsellersignup$/);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'JOIN US!' })).toBeVisible();
    await page.getByLabel('Email').fill(`visitor-${Date.now()}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'CREATE AN ACCOUNT' }).click();
    await expect(page).toHaveURL(/\/buyerandsellersignup$/);
    await expect(page.getByRole('heading', { name: 'Create Your Buyer and Seller Profile' })).toBeVisible();
  });
});
