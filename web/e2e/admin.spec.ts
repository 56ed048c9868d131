import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, type Page } from '@playwright/test';
import { anonKey, grantOperator, makeOperator, nextCode, openConsole, signUpByAPI, uniqueEmail } from './console';
import { test } from './fixtures';

/**
 * The founders' console in Chromium against the real `salaula serve`: an
 * operator signs in (sent from /admin to /sign_up and back), sees a waitlist
 * sign-up made in another page reach the totals, filters and searches the
 * waitlist, downloads its CSV, marks a message handled and finds that in the
 * audit log; on a 360 px phone and on a desktop. Anyone else gets the
 * "This page is for the Salaula team" screen.
 * Operators must pass two-step sign-in: one enrols through the console's
 * walkthrough on a phone and signs in again with password and code; the
 * others are enrolled through the API and type the code at sign-in.
 * With SALAULA_SCREENSHOTS=1 it also saves the screenshots of docs/.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 150_000 });

const docs = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs');

async function pick(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function cardValue(page: Page, label: string): Promise<number> {
  const text = await page.getByRole('group', { name: label, exact: true }).locator('p').first().innerText();
  return Number(text.replace(/[^0-9]/g, ''));
}

async function shot(page: Page, name: string) {
  if (process.env.SALAULA_SCREENSHOTS) await page.screenshot({ path: `${docs}/${name}.png`, fullPage: false });
}

for (const device of [
  { name: 'phone', viewport: { width: 360, height: 740 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
]) {
  test.describe(`on a ${device.name}`, () => {
    test.use({ viewport: device.viewport });

    test('an operator follows the launch, exports the waitlist and handles a message', async ({ page, request }) => {
      const founder = uniqueEmail('founder');
      const secret = await makeOperator(request, founder);
      const sender = uniqueEmail('ruth');
      const sent = await request.post('/functions/v1/contact-form-submit', {
        headers: { apikey: await anonKey(request), 'Content-Type': 'application/json' },
        data: { firstName: 'Ruth', lastName: 'Banda', email: sender, phoneNumber: '+260 966 000111', subject: 'careers', message: 'Are you hiring designers in Lusaka?' },
      });
      expect(sent.status()).toBe(200);

      await page.clock.install();
      await openConsole(page, founder, secret);
      await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
      const before = await cardValue(page, 'Wardrobe Clearance Program sign-ups');
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
      await shot(page, `console-overview-${device.name}`);

      // A sign-up in another page reaches the totals live (or at the 30 s refresh).
      const joiner = uniqueEmail('mwila');
      const other = await page.context().newPage();
      await other.goto('/wardrobeclearance?utm_source=console-e2e&utm_campaign=launch');
      await other.getByRole('textbox', { name: /Email address/ }).fill(joiner);
      await other.getByRole('button', { name: 'Join the Waitlist' }).click();
      await expect(other.getByText("You're on the list!")).toBeVisible();
      await other.close();
      await page.clock.fastForward(30_000);
      await expect.poll(() => cardValue(page, 'Wardrobe Clearance Program sign-ups')).toBe(before + 1);

      // The waitlist: filter, search, download what the filters show.
      await page.getByRole('tab', { name: 'Waitlist' }).click();
      await expect(page.getByRole('heading', { name: 'Waitlist', level: 1 })).toBeVisible();
      await pick(page, 'Program', 'Wardrobe Clearance Program');
      await page.getByRole('searchbox', { name: 'Search e-mail' }).fill(joiner.slice(0, 20));
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect(page.getByRole('status').filter({ hasText: /of 1$/ })).toHaveText('1–1 of 1');
      const table = page.getByRole('table', { name: 'Waitlist' });
      await expect(table.getByRole('cell', { name: joiner })).toBeVisible();
      await expect(table.getByRole('cell', { name: 'console-e2e / launch' })).toBeVisible();
      await shot(page, `console-waitlist-${device.name}`);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^salaula-waitlist-\d{4}-\d\d-\d\d\.csv$/);
      const csv = readFileSync(await download.path(), 'utf8').trim().split('\n');
      expect(csv[0]).toBe('created_at,email,program,page_path,referrer,utm_source,utm_medium,utm_campaign,utm_term,utm_content,unsubscribed_at,referred_by');
      expect(csv).toHaveLength(2);
      expect(csv[1]).toContain(`${joiner},Wardrobe Clearance Program,/wardrobeclearance,`);

      // The inbox: mark Ruth's message handled with a note.
      await page.getByRole('tab', { name: 'Messages' }).click();
      await page.getByRole('searchbox', { name: 'Search e-mail or name' }).fill(sender);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect(page.getByRole('status').filter({ hasText: /of 1$/ })).toHaveText('1–1 of 1');
      await expect(page.getByRole('link', { name: 'Reply by e-mail' })).toHaveAttribute('href', `mailto:${sender}?subject=Re%3A%20Careers`);
      await page.getByLabel('Note on the message from Ruth Banda').fill('Told her we hire in January.');
      await page.getByRole('button', { name: 'Mark handled' }).click();
      await expect(page.getByRole('button', { name: 'Reopen' })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Messages' }).getByText('Handled', { exact: true })).toBeVisible();
      await shot(page, `console-messages-${device.name}`);

      // The audit log shows it, with who did it.
      await page.getByRole('tab', { name: 'Audit log' }).click();
      const audit = page.getByRole('table', { name: 'Audit log' });
      const row = audit.getByRole('row').filter({ hasText: founder }).first();
      await expect(row).toContainText('Marked message handled; Changed the note');
      await expect(row).toContainText('Message from Ruth Banda');
      await shot(page, `console-audit-${device.name}`);
    });
  });
}

test('anyone but an operator sees the screen for the Salaula team', async ({ page, request }) => {
  const shopper = uniqueEmail('shopper');
  await signUpByAPI(request, shopper);
  await openConsole(page, shopper);
  await expect(page.getByRole('heading', { name: 'This page is for the Salaula team' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Waitlist' })).toHaveCount(0);
});

test.describe('on a 360 px phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('a new operator turns on two-step sign-in at the first visit, then signs in with password and code', async ({ page, request }) => {
    const founder = uniqueEmail('founder-enrol');
    await grantOperator(request, founder);
    await openConsole(page, founder);

    // No authenticator app yet: the console walks the operator through enrolling, and shows nothing else.
    await expect(page.getByRole('heading', { name: 'Two-step sign-in', level: 1 })).toBeVisible();
    await expect(page.getByText('The Salaula console needs two-step sign-in.')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Waitlist' })).toHaveCount(0);
    await page.getByRole('button', { name: 'TURN ON TWO-STEP SIGN-IN' }).click();
    await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
    const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // A wrong code is refused with a message; the right one opens the console.
    await page.getByLabel('6-digit code').fill('000000');
    await page.getByRole('button', { name: 'TURN ON', exact: true }).click();
    await expect(page.getByText('That code is not right.')).toBeVisible();
    await page.getByLabel('6-digit code').fill(nextCode(secret));
    await page.getByRole('button', { name: 'TURN ON', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

    // Signed out, the console asks for the password and then the code.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign_up/);
    await openConsole(page, founder, secret);
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Waitlist' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});

test('on a 360 px phone an operator changes the phone number and the contact page shows it after a reload', async ({ page, request }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const founder = uniqueEmail('settings');
  const secret = await makeOperator(request, founder);
  await page.goto('/contact');
  const info = page.getByRole('region', { name: 'Contact Information' });
  // No number is shown until one is set.
  const shown = info.getByRole('link', { name: /^0\d\d \d{3} \d{4}$/ });
  const before = (await shown.count()) > 0 ? await shown.innerText() : '';
  const fresh = before === '097 712 3456' ? '096 555 0101' : '097 712 3456';

  await openConsole(page, founder, secret);
  await page.goto('/admin/settings');
  const phone = page.getByRole('form', { name: 'Phone number' });
  const field = phone.getByRole('textbox', { name: 'Phone number' });
  // A number that is not Zambian is refused with a message, and the field is focused.
  await field.fill('+44 20 7946 0958');
  await phone.getByRole('button', { name: 'Save' }).click();
  await expect(phone.getByText(/^Enter a Zambian phone number/)).toBeVisible();
  await expect(field).toBeFocused();
  await field.fill(fresh);
  await phone.getByRole('button', { name: 'Save' }).click();
  await expect(phone.getByRole('status')).toContainText(`Phone number is now ${fresh}`);

  await page.goto('/contact');
  await page.reload();
  const link = info.getByRole('link', { name: fresh });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', `tel:+260${fresh.replace(/^0|\s/g, '')}`);
  // A portrait is uploaded like a profile photo and shows on the About page.
  await page.goto('/admin/settings');
  const portrait = page.getByRole('form', { name: 'First team member: portrait address' });
  await portrait.locator('input[type=file]').setInputFiles(resolve(dirname(fileURLToPath(import.meta.url)), '../public/icons/icon-192.png'));
  await expect(portrait.getByRole('status')).toContainText('/storage/v1/object/public/user-media/');
  await page.goto('/about');
  const img = page.getByRole('img', { name: /^Portrait of / });
  await expect(img).toHaveAttribute('src', /\/storage\/v1\/object\/public\/user-media\/.+\/portraits\//);
  await img.scrollIntoViewIfNeeded();
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
  // The changes are in the audit log.
  await page.goto('/admin/audit');
  const change = page.getByRole('row').filter({ hasText: `Changed to ${fresh}` }).first();
  await expect(change).toContainText('Setting: Phone number');
});
