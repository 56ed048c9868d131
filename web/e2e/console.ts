import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect as baseExpect, type APIRequestContext, type Page } from '@playwright/test';
import { totp } from './totp';

/**
 * Helpers shared by browser tests (the console's admin.spec.ts and
 * analytics.spec.ts, and others): accounts made through the auth API or the
 * sign-up form, operators with two-step sign-in on, and signing in to /admin.
 */

// Patient: on a busy machine the console's lazy chunk can take many seconds to start.
const expect = baseExpect.configure({ timeout: 30_000 });

/** The password of every account the console tests make. */
export const PASSWORD = 'Cairo-Road-Console-9';
const binary = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/salaula');
let counter = 0;
/** uniqueEmail is a fresh e-mail address for a test's account. */
export const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${++counter}@example.com`;

/** anonKey is the app's anon key, read as the app reads it. */
export async function anonKey(request: APIRequestContext): Promise<string> {
  const res = await request.get('/config.json');
  return ((await res.json()) as { anonKey: string }).anonKey;
}

/** signUpInPage makes an account with the sign-up form on /sign_up; the app then asks for a role. */
export async function signUpInPage(page: Page, email: string, password = PASSWORD) {
  await page.goto('/sign_up');
  await expect(page.getByRole('heading', { name: 'JOIN US!' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'CREATE AN ACCOUNT' }).click();
  await expect(page).toHaveURL(/\/select_role$/);
}

/** signUpByAPI makes an account through the auth API and returns its access token. */
export async function signUpByAPI(request: APIRequestContext, email: string): Promise<string> {
  const res = await request.post('/auth/v1/signup', {
    headers: { apikey: await anonKey(request), 'Content-Type': 'application/json' },
    data: { email, password: PASSWORD },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * nextCode is the code an authenticator app shows now, or the next step's
 * (the server accepts one step of drift) when this step's code was already
 * used: the server accepts a code only once.
 */
const usedSteps = new Map<string, number>();
export function nextCode(secret: string): string {
  const now = Math.floor(Date.now() / 30_000);
  const step = Math.max(now, (usedSteps.get(secret) ?? -1) + 1);
  usedSteps.set(secret, step);
  return totp(secret, step * 30_000);
}

/** grantOperator makes an account and grants it the operator role with `salaula admin grant`, which says two-step sign-in comes next. */
export async function grantOperator(request: APIRequestContext, email: string): Promise<string> {
  const access = await signUpByAPI(request, email);
  const out = execFileSync(binary, ['admin', 'grant', email, '--data', process.env.SALAULA_E2E_DATA!], { encoding: 'utf8' });
  expect(out).toMatch(/two-step sign-in/i);
  return access;
}

/**
 * makeOperator makes an operator who has two-step sign-in on (an
 * authenticator app enrolled and verified through the auth API) and returns
 * the app's secret. Every console test makes its operators here.
 */
export async function makeOperator(request: APIRequestContext, email: string): Promise<string> {
  const headers = { apikey: await anonKey(request), Authorization: `Bearer ${await grantOperator(request, email)}` };
  const enrolled = await request.post('/auth/v1/factors', { headers, data: { factor_type: 'totp', friendly_name: 'Phone' } });
  expect(enrolled.status(), await enrolled.text()).toBe(200);
  const { id, totp: app } = (await enrolled.json()) as { id: string; totp: { secret: string } };
  const challenge = await request.post(`/auth/v1/factors/${id}/challenge`, { headers, data: {} });
  expect(challenge.status(), await challenge.text()).toBe(200);
  const verified = await request.post(`/auth/v1/factors/${id}/verify`, {
    headers,
    data: { challenge_id: ((await challenge.json()) as { id: string }).id, code: nextCode(app.secret) },
  });
  expect(verified.status(), await verified.text()).toBe(200);
  return app.secret;
}

/**
 * openConsole opens /admin signed out, is sent to sign in, signs in (and types
 * the authenticator app's code when secret is given) and comes back.
 */
export async function openConsole(page: Page, email: string, secret?: string) {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/sign_up\?next=%2Fadmin$/);
  await expect(page.getByRole('heading', { name: 'WELCOME BACK!' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  if (secret) {
    await expect(page.getByRole('heading', { name: 'TWO-STEP SIGN-IN' })).toBeVisible();
    await page.getByLabel('6-digit code').fill(nextCode(secret));
    await page.getByRole('button', { name: 'VERIFY' }).click();
  }
  await expect(page).toHaveURL(/\/admin$/);
}
