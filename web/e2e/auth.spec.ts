import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, type APIRequestContext, type Page } from '@playwright/test';
import { test } from './fixtures';

/**
 * Accounts and sessions in Chromium against the real `salaula serve`:
 * sign-up, role choice, sign-in with and without a role, the service's
 * error in the red banner, a reload keeping the session, and the password
 * reset by the e-mailed link.
 */

// Several test runs share this 2-core machine: give pages time to load.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

const PASSWORD = 'Chitenge-Market-77';
let counter = 0;
/** uniqueEmail gives each test its own account. */
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${++counter}@example.com`;

async function anonKey(request: APIRequestContext): Promise<string> {
  const res = await request.get('/config.json');
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { anonKey: string }).anonKey;
}

/** apiSignUp creates an account through the auth API and returns its session. */
async function apiSignUp(request: APIRequestContext, email: string, password = PASSWORD) {
  const key = await anonKey(request);
  const res = await request.post('/auth/v1/signup', {
    headers: { apikey: key, 'Content-Type': 'application/json' },
    data: { email, password },
  });
  expect(res.status(), await res.text()).toBe(200);
  const session = (await res.json()) as { access_token: string; user: { id: string } };
  return { key, token: session.access_token, userId: session.user.id };
}

/** openSignIn opens /sign_up and waits for the form (after the first-load skeleton and the session check). */
async function openSignIn(page: Page, path = '/sign_up') {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: /^(JOIN US!|WELCOME BACK!)$/ })).toBeVisible();
}

async function signUpInBrowser(page: Page, email: string) {
  await openSignIn(page);
  await expect(page.getByRole('heading', { name: 'JOIN US!' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'CREATE AN ACCOUNT' }).click();
  await expect(page).toHaveURL(/\/select_role$/);
  await expect(page.getByRole('heading', { name: 'What brings you to Salaula?' })).toBeVisible();
}

async function signInInBrowser(page: Page, email: string, password = PASSWORD) {
  await openSignIn(page, '/sign_up?mode=login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'SIGN IN' }).click();
}

test('signing up lands on /select_role, and PROCEED as a buyer lands on /buyersignup?role=buyer', async ({ page }) => {
  await signUpInBrowser(page, uniqueEmail('signup'));
  const proceed = page.getByRole('button', { name: 'PROCEED' });
  await expect(proceed).toBeDisabled();
  const buyer = page.getByRole('button', { name: /Become a Buyer/ });
  await buyer.click();
  await expect(buyer).toHaveAttribute('aria-pressed', 'true');
  await proceed.click();
  await expect(page).toHaveURL(/\/buyersignup\?role=buyer$/);
});

test('signing up with an e-mail already registered shows the service message', async ({ page, request }) => {
  const email = uniqueEmail('taken');
  await apiSignUp(request, email);
  await openSignIn(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'CREATE AN ACCOUNT' }).click();
  await expect(page.getByRole('alert')).toHaveText('User already registered');
  await expect(page).toHaveURL(/\/sign_up$/);
});

test("a wrong password shows 'Invalid login credentials' in the red banner", async ({ page, request }) => {
  const email = uniqueEmail('wrong');
  await apiSignUp(request, email);
  await signInInBrowser(page, email, 'Not-The-Password-1');
  const banner = page.getByRole('alert');
  await expect(banner).toHaveText('Invalid login credentials');
  // The red banner: the error alert's light red background (styles/ui.css .fk-alert-error).
  await expect(banner).toHaveCSS('background-color', 'rgb(253, 237, 237)');
  await expect(page.getByRole('button', { name: 'SIGN IN' })).toBeEnabled();
  await expect(page).toHaveURL(/\/sign_up\?mode=login$/);
});

test('a reload keeps the session: a signed-in user opening /sign_up is sent on', async ({ page }) => {
  await signUpInBrowser(page, uniqueEmail('reload'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'What brings you to Salaula?' })).toBeVisible();
  await expect(page).toHaveURL(/\/select_role$/);
  await page.goto('/sign_up');
  await expect(page).toHaveURL(/\/select_role$/);
  await expect(page.getByRole('heading', { name: 'What brings you to Salaula?' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveCount(0);
});

test('a visitor opening /select_role signs in first and comes back to it', async ({ page, request }) => {
  const email = uniqueEmail('next');
  await apiSignUp(request, email);
  await page.goto('/select_role');
  await expect(page).toHaveURL(/\/sign_up\?next=%2Fselect_role$/);
  await expect(page.getByRole('heading', { name: 'WELCOME BACK!' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  await expect(page).toHaveURL(/\/select_role$/);
});

test('an account with a role signs in and lands on /index', async ({ page, request }) => {
  const email = uniqueEmail('buyer');
  const { key, token, userId } = await apiSignUp(request, email);
  const onboard = await request.post('/functions/v1/onboard-new-user', {
    headers: { Authorization: `Bearer ${token}`, apikey: key, 'Content-Type': 'application/json' },
    data: {
      userId,
      role: 'buyer',
      full_name: 'Chanda Mwila',
      location: 'Lusaka',
      age: 27,
      phone_number: '+260971234567',
      gender: 'Male',
      height: '175 cm',
      waist_size: '32',
      style_description: 'Street wear and denim',
      clothing_aesthetics: ['STREET WEAR'],
      inspiration: '',
      wants_clearance_program: false,
      body_photo_urls: [],
      profile_pic_url: null,
    },
  });
  expect(onboard.ok(), `onboard-new-user answered ${onboard.status()}: ${await onboard.text()}`).toBeTruthy();
  await signInInBrowser(page, email);
  await expect(page).toHaveURL(/\/index$/);
  // With a role, opening the sign-in screen again goes to /thanks (spec section 4).
  await page.goto('/sign_up');
  await expect(page).toHaveURL(/\/thanks$/);
});

/** latestResetLink reads the newest reset e-mail to the address with `salaula admin mail` ('' while none). */
function latestResetLink(email: string): string {
  const binary = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/salaula');
  const out = execFileSync(binary, ['admin', 'mail', '--to', email, '--limit', '1', '--data', process.env.SALAULA_E2E_DATA!], {
    encoding: 'utf8',
  });
  if (!/^Kind: recovery$/m.test(out)) return '';
  const link = out.match(/https?:\/\/\S+\/reset_password\?\S+/)?.[0];
  if (!link) return '';
  const url = new URL(link);
  return url.pathname + url.search;
}

test('forgot password: the e-mailed link lets the person choose a new password, once', async ({ page, request }) => {
  const email = uniqueEmail('reset');
  await apiSignUp(request, email);
  await openSignIn(page, '/sign_up?mode=login');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByRole('button', { name: 'SEND RESET LINK' }).click();
  await expect(page.getByText(`If an account exists for ${email}, we have sent it a link`)).toBeVisible();
  // Asking again within the minute says when the next link can be asked for.
  await page.getByRole('button', { name: 'SEND RESET LINK' }).click();
  await expect(page.getByRole('alert')).toHaveText(/^For security purposes, you can only request this after \d+ seconds\.$/);

  // The server sends the e-mail just after answering.
  await expect.poll(() => latestResetLink(email)).toMatch(/^\/reset_password\?token_hash=[^&]+&type=recovery$/);
  const link = latestResetLink(email);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  // The service's own rule shows when the password is too weak.
  await page.getByLabel('New password', { exact: true }).fill('password');
  await page.getByLabel('Confirm new password', { exact: true }).fill('password');
  await page.getByRole('button', { name: 'SAVE NEW PASSWORD' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Password is known to be weak and easy to guess, please choose a different one.',
  );
  const newPassword = 'Kalingalinga-Rain-2026';
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'SAVE NEW PASSWORD' }).click();
  await expect(page).toHaveURL(/\/sign_up\?mode=login$/);
  await expect(page.getByRole('alert')).toHaveText('Your password has been changed. Sign in with your new password.');

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid login credentials');
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  await expect(page).toHaveURL(/\/select_role$/);

  // The link works once: opened again, its page says at once that it is spent.
  await page.goto(link);
  await expect(
    page.getByText('This password reset link has expired or has already been used. Ask for a new one below.'),
  ).toBeVisible();
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
});

/** expectMainFits checks that the page's main content needs no sideways scrolling on the phone's width. */
async function expectMainFits(page: Page) {
  const width = page.viewportSize()!.width;
  const box = await page.getByRole('main').boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
  const inner = await page.getByRole('main').evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(inner).toBeLessThanOrEqual(0);
}

test('the sign-in screen fits a 360 px phone and has no accessibility violations', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openSignIn(page);
  await expectMainFits(page);
  const results = await new AxeBuilder({ page }).include('main').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement?.tagName);
  expect(focused).toBeTruthy();
});

test('the role choice fits a 360 px phone and has no accessibility violations', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signUpInBrowser(page, uniqueEmail('a11y'));
  await expectMainFits(page);
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});
