import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures';

/**
 * The referral loop on a phone (360 px): joining answers alike for every
 * address; the confirm link e-mailed to the address shows the place in line
 * and the share buttons, with the personal link on the address the page was
 * opened at; the link's owner moves up once a friend confirmed. Each person
 * joins from a device of their own (the server trusts the loopback proxy,
 * so X-Forwarded-For tells them apart). The server runs without
 * --public-url: e-mails say http://localhost:PORT, the pages are opened at
 * 127.0.0.1.
 */
const phone = { width: 360, height: 740 };

async function personOn(browser: Browser, ip: string): Promise<Page> {
  const context = await browser.newContext({ viewport: phone, extraHTTPHeaders: { 'X-Forwarded-For': ip } });
  return context.newPage();
}

/** latestConfirmLink reads the path of the newest confirm link e-mailed to the address with `salaula admin mail` ('' while none). */
function latestConfirmLink(email: string): string {
  const binary = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/salaula');
  const out = execFileSync(binary, ['admin', 'mail', '--to', email, '--limit', '1', '--data', process.env.SALAULA_E2E_DATA!], {
    encoding: 'utf8',
  });
  const link = out.match(/https?:\/\/\S+\/functions\/v1\/waitlist-confirm\?\S+/)?.[0];
  if (!link) return '';
  const url = new URL(link);
  return url.pathname + url.search;
}

async function join(page: Page, path: string, email: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Join Our Wardrobe Clearance Program' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('textbox', { name: /Email address/ }).fill(email);
  await page.getByRole('button', { name: 'Join the Waitlist' }).click();
  await expect(page.getByText("You're on the list!")).toBeVisible();
  await expect(page.getByText('Check your e-mail and press the link in it')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Share on WhatsApp' })).toHaveCount(0);
}

/** confirm opens the confirm link e-mailed to the address and presses its button: the place and personal link show. */
async function confirm(page: Page, email: string): Promise<{ position: number; link: string }> {
  await expect.poll(() => latestConfirmLink(email)).toMatch(/^\/functions\/v1\/waitlist-confirm\?token=/);
  await page.goto(latestConfirmLink(email));
  await page.getByRole('button', { name: 'Confirm my address' }).click();
  await expect(page).toHaveURL(/\/wardrobeclearance#wl_place=/);
  await expect(page.getByText('Your address is confirmed')).toBeVisible({ timeout: 30_000 });
  const share = page.getByRole('link', { name: 'Share on WhatsApp' });
  await expect(share).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible();
  const link = await page.getByRole('textbox', { name: 'Your personal link' }).inputValue();
  // The personal link is on the address the page was opened at, not the one e-mails carry.
  expect(new URL(link).origin).toBe(new URL(page.url()).origin);
  expect(decodeURIComponent((await share.getAttribute('href')) ?? '')).toContain(link);
  expect(await share.getAttribute('href')).toMatch(/^https:\/\/wa\.me\/\?text=/);
  // Nothing sticks out of a 360 px screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
  const position = Number((await page.getByTestId('wl-position').innerText()).replace(/\D/g, ''));
  return { position, link };
}

test("a friend who joins through a shared link and confirms moves the owner up; the link is on the page's own address", async ({ browser, request }) => {
  test.setTimeout(180_000);
  const run = Date.now();
  // A few people ahead (through the API, each from a device of their own), so the owner has somewhere to move.
  for (let i = 0; i < 12; i++) {
    const res = await request.post('/functions/v1/waitlist-signup', {
      data: { email: `ahead.${run}.${i}@example.com`, programName: 'Wardrobe Clearance Program', pagePath: '/wardrobeclearance' },
      headers: { 'X-Forwarded-For': `10.77.${i}.1` },
    });
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ success: true, message: "You're on the list!" });
  }
  const owner = await personOn(browser, '10.78.0.1');
  const ownerEmail = `owner.${run}@example.com`;
  await join(owner, '/wardrobeclearance', ownerEmail);
  const before = await confirm(owner, ownerEmail);
  expect(before.position).toBeGreaterThan(12);
  const url = new URL(before.link);
  expect(url.searchParams.get('ref')).toMatch(/^[a-z2-9]{10}$/);

  const friend = await personOn(browser, '10.78.0.2');
  const friendEmail = `friend.${run}@example.com`;
  await join(friend, url.pathname + url.search, friendEmail);
  // Not confirmed yet: the owner has not moved (the owner's link's button shows the place again).
  expect((await confirm(owner, ownerEmail)).position).toBe(before.position);
  const joined = await confirm(friend, friendEmail);
  expect(joined.position).toBe(before.position + 1);
  expect(joined.link).not.toBe(before.link);
  const after = await confirm(owner, ownerEmail);
  expect(after.link).toBe(before.link);
  expect(after.position).toBe(before.position - 10);
});
