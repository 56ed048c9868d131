import { expect as baseExpect, type APIRequestContext, type Page } from '@playwright/test';

/**
 * Helpers shared by the onboarding browser tests (onboarding.spec.ts,
 * uploads.spec.ts): pictures drawn in the browser, signing up and choosing
 * a role, and reading back the saved profile and its stored images.
 */

/** The password of every account these tests make. */
export const PASSWORD = 'Kabulonga-Thrift-2026!';
// Several test runs share a small machine: give pages time to load.
export const expect = baseExpect.configure({ timeout: 15_000 });

/** A picture made in the browser: a gradient with shapes, like a photo, of the given size and type. */
export interface PictureSpec {
  name: string;
  width: number;
  height: number;
  type: 'image/png' | 'image/jpeg';
}

/** makePictures draws the pictures in the page and returns them as files for setInputFiles. */
export async function makePictures(page: Page, specs: PictureSpec[]) {
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
export async function signUp(page: Page, email: string) {
  await page.goto('/sign_up');
  await expect(page.getByRole('heading', { name: 'JOIN US!' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'CREATE AN ACCOUNT' }).click();
  await expect(page).toHaveURL(/\/select_role$/);
}

/** Chooses a role on /select_role and proceeds to its signup form. */
export async function chooseRole(page: Page, card: 'Become a Buyer' | 'Become a Seller') {
  await page.getByRole('button', { name: new RegExp(card) }).click();
  await page.getByRole('button', { name: 'PROCEED' }).click();
}

/** Signs out (forgets the stored session) and signs in again on /sign_up. */
export async function signInAgain(page: Page, email: string) {
  await page.evaluate(() => localStorage.clear());
  await page.goto('/sign_up');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'WELCOME BACK!' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'SIGN IN' }).click();
}

/** The stored session's access token (supabase-js keeps it in localStorage). */
export async function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => /^sb-.*-auth-token$/.test(k));
    return key ? (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token : '';
  });
}

/** Calls get-profile-me with the page's session, as the app does. */
export async function profileMe(page: Page, request: APIRequestContext) {
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
export async function storedImages(page: Page, request: APIRequestContext, urls: string[]) {
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

/** acceptAlert answers the next alert and resolves with its text. */
export function acceptAlert(page: Page): Promise<string> {
  return new Promise((resolve) =>
    page.once('dialog', (d) => {
      resolve(d.message());
      void d.accept();
    }),
  );
}
