import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './slowPhone';
import { makeOperator, openConsole, PASSWORD, uniqueEmail } from './console';

/**
 * What confused people in a walkthrough on a 360 px Android phone: the
 * contact form's phone, the console's sources, referrals, announcement
 * progress, phone numbers and audit entries, tab titles, share buttons and
 * the style field's label. Each test looks at what the page shows, at
 * 360 px on the slow link (slowPhone.ts), against the real server.
 */

const phone = { width: 360, height: 740 }; // slowPhone's

const binary = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/salaula');

/** latestConfirmLink is the path of the newest waitlist confirm link e-mailed to email ('' while none). */
function latestConfirmLink(email: string): string {
  const out = execFileSync(binary, ['admin', 'mail', '--to', email, '--limit', '1', '--data', process.env.SALAULA_E2E_DATA!], { encoding: 'utf8' });
  const link = out.match(/https?:\/\/\S+\/functions\/v1\/waitlist-confirm\?\S+/)?.[0];
  return link ? new URL(link).pathname + new URL(link).search : '';
}

/** fitsTheScreen: nothing on the page is wider than the phone. */
async function fitsTheScreen(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
}

test('the contact form refuses a phone number that is not Zambian; the console shows it the local way and the audit log by name', async ({ page, request }) => {
  test.setTimeout(120_000);
  const sender = uniqueEmail('caller');
  await page.goto('/contact');
  await page.getByLabel('First Name').fill('Chanda');
  await page.getByLabel('Last Name').fill('Mwale');
  await page.getByLabel('Email').fill(sender);
  await page.getByLabel('Phone Number').fill('12');
  await page.getByRole('radio', { name: 'General Inquiry' }).check();
  await page.getByLabel('Write Your Message Here').fill('When do you open in Chilenje?');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Please enter a valid Zambian phone number, e.g. +260 97 123 4567')).toBeVisible();
  await expect(page.getByText("Message sent successfully! We'll be in touch soon.")).toHaveCount(0);
  // The server applies the same rule, naming the field.
  const refused = await request.post('/functions/v1/contact-form-submit', {
    data: { firstName: 'Chanda', lastName: 'Mwale', email: sender, phoneNumber: '12', subject: 'other', message: 'When do you open?' },
  });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { fields: Record<string, string> }).fields).toEqual({
    phoneNumber: 'Please enter a valid Zambian phone number, e.g. +260 97 123 4567',
  });

  await page.getByLabel('Phone Number').fill('0977 123 456');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText("Message sent successfully! We'll be in touch soon.")).toBeVisible();

  const founder = uniqueEmail('walk-messages');
  await openConsole(page, founder, await makeOperator(request, founder));
  await page.goto('/admin/messages');
  await page.getByRole('searchbox', { name: 'Search e-mail or name' }).fill(sender);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  // The search's answer replaces the whole list: only the sender's message is left to mark.
  await expect(page.getByRole('status').filter({ hasText: /^1–1 of 1$/ })).toBeVisible();
  const table = page.getByRole('table', { name: 'Messages' });
  await expect(table.getByRole('link', { name: '097 712 3456' })).toHaveAttribute('href', 'tel:+260977123456');
  await expect(table.getByText('+260977123456')).toHaveCount(0);
  await expect(table.getByRole('button', { name: 'Mark handled' })).toHaveCount(1);
  await table.getByRole('button', { name: 'Mark handled' }).click();
  await expect(table.getByRole('button', { name: 'Reopen' })).toBeVisible();

  await page.goto('/admin/audit');
  const row = page.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: founder }).filter({ hasText: 'Marked message handled' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Message from Chanda Mwale');
  await expect(row).not.toContainText('contact_message');
  await fitsTheScreen(page);
});

test("a sign-up through a friend's link shows the friend as its source; Referrals are cards; the share buttons are 48 px", async ({ page, request, browser, baseURL }) => {
  test.setTimeout(150_000);
  const run = Date.now();
  const owner = `a.rather.long.address.of.the.owner.${run}@example.com`;
  const friend = `friend.${run}@example.com`;
  const join = (email: string, ip: string, ref = '') =>
    request.post('/functions/v1/waitlist-signup', {
      data: { email, programName: 'Wardrobe Clearance Program', pagePath: '/wardrobeclearance', ref },
      headers: { 'X-Forwarded-For': ip },
    });
  expect((await join(owner, '10.91.0.1')).status()).toBe(200);

  // The owner confirms on their phone: the place and the share buttons show, each at least 48 px tall.
  const ownerPhone = await (await browser.newContext({ baseURL, viewport: phone, isMobile: true, hasTouch: true })).newPage();
  await expect.poll(() => latestConfirmLink(owner)).toMatch(/^\/functions\/v1\/waitlist-confirm\?token=/);
  await ownerPhone.goto(latestConfirmLink(owner));
  await ownerPhone.getByRole('button', { name: 'Confirm my address' }).click();
  await expect(ownerPhone.getByText('Your address is confirmed')).toBeVisible();
  for (const button of [ownerPhone.getByRole('link', { name: 'Share on WhatsApp' }), ownerPhone.getByRole('button', { name: 'Copy link' })]) {
    await expect(button).toBeVisible();
    expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(48);
  }
  const code = new URL(await ownerPhone.getByRole('textbox', { name: 'Your personal link' }).inputValue()).searchParams.get('ref')!;
  await ownerPhone.context().close();
  expect((await join(friend, '10.91.0.2', code)).status()).toBe(200);

  const founder = uniqueEmail('walk-referrals');
  await openConsole(page, founder, await makeOperator(request, founder));
  await page.goto('/admin/waitlist');
  await page.getByRole('searchbox', { name: 'Search e-mail' }).fill(friend);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const list = page.getByRole('table', { name: 'Waitlist' });
  await expect(list.getByRole('cell', { name: `Friend's link: ${owner}` })).toBeVisible();
  await expect(list.getByText('direct', { exact: true })).toHaveCount(0);

  await page.goto('/admin/referrals');
  const top = page.getByRole('table', { name: 'Top referrers' });
  const person = top.getByRole('button', { name: owner });
  await expect(person).toBeVisible();
  await fitsTheScreen(page);
  // Cards: no header row, each value named; the address is not squeezed into a column a few letters wide.
  await expect(top.locator('thead')).toBeHidden();
  expect((await person.boundingBox())!.width).toBeGreaterThan(150);
  expect((await person.boundingBox())!.height).toBeGreaterThanOrEqual(48);
  await person.click();
  const of = page.getByRole('table', { name: `Sign-ups through the link of ${owner}` });
  await expect(of.getByText(friend)).toBeVisible();
  await fitsTheScreen(page);
});

test('announcement progress says "N of N sent" and its status in words', async ({ page, request }) => {
  test.setTimeout(150_000);
  const run = Date.now();
  for (let i = 0; i < 3; i++) {
    const res = await request.post('/functions/v1/waitlist-signup', {
      data: { email: `news.${run}.${i}@example.com`, programName: 'Wardrobe Clearance Program' },
      headers: { 'X-Forwarded-For': `10.92.${i}.1` },
    });
    expect(res.status()).toBe(200);
  }
  const founder = uniqueEmail('walk-news');
  await openConsole(page, founder, await makeOperator(request, founder));
  await page.goto('/admin/announcements');
  const subject = `Pick-ups start in Kabulonga ${run}`;
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Text (plain text; links as they are)').fill('We collect from Monday.');
  await page.getByLabel('E-mails a second').fill('50');
  await page.getByRole('button', { name: 'Save draft' }).click();
  const card = page.getByRole('article', { name: subject });
  await expect(card.getByTestId('announcement-status')).toHaveText('Draft: not sent yet');
  const willGo = card.getByTestId('announcement-counts');
  await expect(willGo).toHaveText(/^Will go to \d+ addresses$/);
  const total = Number((await willGo.innerText()).replace(/\D/g, ''));
  expect(total).toBeGreaterThanOrEqual(3);

  await card.getByRole('button', { name: 'Send to the waitlist' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Send to the waitlist' }).click();
  await expect(card.getByTestId('announcement-counts')).toHaveText(new RegExp(`^\\d+ of ${total} sent$`));
  await expect(card.getByTestId('announcement-status')).toHaveText('Sent to everyone', { timeout: 60_000 });
  await expect(card.getByTestId('announcement-counts')).toHaveText(`${total} of ${total} sent`);
  await expect(card.getByText(/queued so far|\bdone\b|\bsending\b/)).toHaveCount(0);
  await expect(card.getByTestId('announcement-problems')).toHaveCount(0);
  await fitsTheScreen(page);
});

test('each page named in the walkthrough has its own tab title', async ({ page }) => {
  const titles = new Set<string>();
  for (const [path, title] of [
    ['/wardrobeclearance', 'Wardrobe Clearance Program | Salaula'],
    ['/thanks', 'Thank you | Salaula'],
    ['/comingsoon', 'Coming soon | Salaula'],
    ['/help', 'Help: coming soon | Salaula'],
    ['/tracking', 'Order tracking: coming soon | Salaula'],
    ['/categories', 'Categories: coming soon | Salaula'],
    ['/404', 'Page not found | Salaula'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page).toHaveTitle(title);
    titles.add(await page.title());
  }
  expect(titles.size).toBe(7);
  // An unknown path lands on the 404 page, with its title.
  await page.goto('/no-such-page');
  await expect(page).toHaveTitle('Page not found | Salaula');
});

test('the style field has one label in the sign-up form and the profile form', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/sign_up');
  await page.getByLabel('Email').fill(uniqueEmail('style'));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'CREATE AN ACCOUNT' }).click();
  await expect(page).toHaveURL(/\/select_role$/);
  for (const path of ['/buyersignup?role=buyer', '/onboarding?role=buyer']) {
    await page.goto(path);
    await expect(page.getByLabel('Describe the clothes you like', { exact: true })).toBeVisible();
    await expect(page.getByText(/Describe your style|Your style/)).toHaveCount(0);
  }
});
