import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, type Page } from '@playwright/test';
import { totp } from './totp';
import { test } from './fixtures';

/**
 * Two-step sign-in in Chromium on a 360 px phone against the real
 * `salaula serve`: a person turns it on at /account/security (QR code and
 * key), signs out, and signs in again with password and code.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

const PASSWORD = 'Chitenge-Market-77';

async function signIn(page: Page, email: string) {
  await page.goto('/sign_up?mode=login');
  await expect(page.getByRole('heading', { name: 'WELCOME BACK!' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'SIGN IN' }).click();
}

async function fitsTheScreen(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(360);
}

test('a person turns on two-step sign-in on a phone, signs out, and signs in with password and code', async ({ page, request }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const email = `twostep-${Date.now()}@example.com`;
  const key = ((await (await request.get('/config.json')).json()) as { anonKey: string }).anonKey;
  const res = await request.post('/auth/v1/signup', { headers: { apikey: key, 'Content-Type': 'application/json' }, data: { email, password: PASSWORD } });
  expect(res.status()).toBe(200);

  await signIn(page, email);
  await expect(page).toHaveURL(/\/select_role$/);
  await page.goto('/account/security');
  await expect(page.getByText('Two-step sign-in is off.')).toBeVisible();
  await page.getByRole('button', { name: 'TURN ON TWO-STEP SIGN-IN' }).click();
  const qr = page.getByRole('img', { name: 'QR code to scan with your authenticator app' });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await fitsTheScreen(page);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  const enrolledAt = Date.now();
  await page.getByLabel('6-digit code').fill(totp(secret, enrolledAt));
  await page.getByRole('button', { name: 'TURN ON' }).click();
  await expect(page.getByRole('status')).toHaveText(/Two-step sign-in is on\./);

  await page.goto('/index');
  await page.getByRole('button', { name: 'Sign out' }).click();
  // Signed out: the page behind sign-in sends the visitor away.
  await expect(page).not.toHaveURL(/\/index$/);

  await signIn(page, email);
  await expect(page.getByRole('heading', { name: 'TWO-STEP SIGN-IN' })).toBeVisible();
  await fitsTheScreen(page);
  // A code already used is refused; the app's next code works (one step of drift).
  await page.getByLabel('6-digit code').fill(totp(secret, enrolledAt));
  await page.getByRole('button', { name: 'VERIFY' }).click();
  await expect(page.getByRole('alert')).toContainText('already used');
  await page.getByLabel('6-digit code').fill(totp(secret, enrolledAt + 30_000));
  await page.getByRole('button', { name: 'VERIFY' }).click();
  await expect(page).toHaveURL(/\/select_role$/);
});

test('after 5 wrong codes in a row the code step says how long to wait', async ({ page, request }) => {
  const email = `lockout-${Date.now()}@example.com`;
  const key = ((await (await request.get('/config.json')).json()) as { anonKey: string }).anonKey;
  const signup = await request.post('/auth/v1/signup', { headers: { apikey: key, 'Content-Type': 'application/json' }, data: { email, password: PASSWORD } });
  expect(signup.status()).toBe(200);
  const headers = { apikey: key, Authorization: `Bearer ${((await signup.json()) as { access_token: string }).access_token}` };
  // Two-step sign-in turned on through the API, as the account page does.
  const factor = (await (await request.post('/auth/v1/factors', { headers, data: { factor_type: 'totp' } })).json()) as { id: string; totp: { secret: string } };
  const challenge = (await (await request.post(`/auth/v1/factors/${factor.id}/challenge`, { headers, data: {} })).json()) as { id: string };
  const enrolled = await request.post(`/auth/v1/factors/${factor.id}/verify`, { headers, data: { challenge_id: challenge.id, code: totp(factor.totp.secret, Date.now()) } });
  expect(enrolled.status()).toBe(200);

  await signIn(page, email);
  await expect(page.getByRole('heading', { name: 'TWO-STEP SIGN-IN' })).toBeVisible();
  const now = Date.now();
  const valid = [-30_000, 0, 30_000, 60_000].map((d) => totp(factor.totp.secret, now + d));
  const wrong = ['000000', '111111', '222222'].find((c) => !valid.includes(c)) ?? '333333';
  for (let i = 0; i < 5; i++) {
    const answer = page.waitForResponse((r) => r.url().endsWith('/verify') && r.request().method() === 'POST');
    await page.getByLabel('6-digit code').fill(wrong);
    await page.getByRole('button', { name: 'VERIFY' }).click();
    expect((await answer).status()).toBe(422);
    await expect(page.getByRole('alert')).toContainText('That code is not right.');
  }
  // Now even the right code waits.
  const answer = page.waitForResponse((r) => r.url().endsWith('/verify') && r.request().method() === 'POST');
  await page.getByLabel('6-digit code').fill(totp(factor.totp.secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'VERIFY' }).click();
  expect((await answer).status()).toBe(429);
  await expect(page.getByRole('alert')).toHaveText('Too many wrong codes in a row. Wait 1 minute, then type the code your app shows.');
  await expect(page).not.toHaveURL(/\/select_role$/);
});
