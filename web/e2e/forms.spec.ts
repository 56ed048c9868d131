import { expect as baseExpect, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from './fixtures';

/**
 * The public forms end to end: bad input shows the spec's messages, good
 * input is stored, and the founders find it in `salaula admin export`.
 * (The Impact page's upcycling form is the same WaitlistForm; in this branch
 * it is exercised through the Wardrobe Clearance page.)
 */

/** The test machine is shared by several suites: give the page time to answer. */
const expect = baseExpect.configure({ timeout: 15_000 });

const binary = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/salaula');

/** exportCSV runs `salaula admin export` on the test server's data folder and parses the CSV. */
function exportCSV(...args: string[]): Record<string, string>[] {
  const out = execFileSync(binary, ['admin', 'export', ...args, '--data', process.env.SALAULA_E2E_DATA!], { encoding: 'utf8' });
  const rows = parseCSV(out);
  const [header, ...records] = rows;
  return records.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

/** openPage goes to path and waits (generously: the test machine is shared) for its h1. */
async function openPage(page: Page, path: string, heading: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible({ timeout: 30_000 });
}

/** parseCSV reads RFC 4180 CSV (quoted cells, doubled quotes, line breaks in quotes). */
function parseCSV(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else if (c !== '\r') cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

test('the contact form shows its errors, then sends a message the founders can export', async ({ page }) => {
  const email = `chanda.${Date.now()}@example.com`;
  await openPage(page, '/contact', 'Contact Us');
  await expect(page.getByText('Any question or remarks? Just write us a message!')).toBeVisible();

  // Bad input: every spec message, nothing sent.
  await page.getByLabel('Email').fill('chanda at example');
  await page.getByLabel('Write Your Message Here').fill('  too short ');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await expect(page.getByText('Last name is required')).toBeVisible();
  await expect(page.getByText('Please enter a valid email')).toBeVisible();
  await expect(page.getByText('Please select a subject')).toBeVisible();
  await expect(page.getByText('Message should be at least 10 characters')).toBeVisible();

  // Editing a field clears its error; choosing a subject clears the subject error.
  await page.getByLabel('First Name').fill('Chanda');
  await expect(page.getByText('First name is required')).toHaveCount(0);
  await page.getByRole('radio', { name: 'General Inquiry' }).check();
  await expect(page.getByText('Please select a subject')).toHaveCount(0);

  // Good input.
  await page.getByLabel('Last Name').fill('Mwale');
  await page.getByLabel('Email').fill(`  ${email.toUpperCase()} `);
  await page.getByLabel('Phone Number').fill('+260 977 123456');
  await page.getByLabel('Write Your Message Here').fill('When does Salaula open in Chilenje? I have clothes to sell.');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText("Message sent successfully! We'll be in touch soon.")).toBeVisible();
  await expect(page.getByLabel('First Name')).toHaveValue('');
  await expect(page.getByLabel('Write Your Message Here')).toHaveValue('');

  const row = exportCSV('messages').find((r) => r.email === email);
  expect(row).toMatchObject({
    first_name: 'Chanda',
    last_name: 'Mwale',
    phone_number: "'+260977123456",
    subject: 'general Inquiry',
    message: 'When does Salaula open in Chilenje? I have clothes to sell.',
  });
  expect(row!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
});

test('the Wardrobe Clearance waitlist rejects a bad e-mail, then joins and shows up in the export', async ({ page }) => {
  const email = `mwila.${Date.now()}@example.com`;
  await openPage(page, '/wardrobeclearance?utm_source=e2e&utm_medium=browser&utm_campaign=forms-spec', 'Join Our Wardrobe Clearance Program');
  const box = page.getByRole('textbox', { name: /Email address/ });
  const join = page.getByRole('button', { name: 'Join the Waitlist' });

  // Blank is silently ignored (the browser's required check stops it; nothing is shown by the page).
  await join.click();
  await expect(page.getByRole('status')).toHaveCount(0);

  // An address the browser accepts but the spec's rule does not.
  await box.fill('mwila@example');
  await join.click();
  await expect(page.getByText('Please enter a valid email')).toBeVisible();

  await box.fill(`  ${email} `);
  await join.click();
  await expect(page.getByText("You're on the list!")).toBeVisible();
  await expect(page.getByText("We'll email you when ready.")).toBeVisible();
  await expect(box).toHaveValue('');

  // Joining again is fine and changes nothing.
  await box.fill(email);
  await join.click();
  await expect(page.getByText("You're on the list!")).toBeVisible();

  const rows = exportCSV('waitlist', '--program', 'Wardrobe Clearance Program').filter((r) => r.email === email);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    program: 'Wardrobe Clearance Program',
    page_path: '/wardrobeclearance',
    utm_source: 'e2e',
    utm_medium: 'browser',
    utm_campaign: 'forms-spec',
    unsubscribed_at: '',
  });
  expect(exportCSV('waitlist', '--program', 'Upcycling Initiative').some((r) => r.email === email)).toBe(false);
});

test('the waitlist bot trap is invisible to people', async ({ page }) => {
  await openPage(page, '/wardrobeclearance', 'Join Our Wardrobe Clearance Program');
  const trap = page.locator('input[name="website"]');
  await expect(trap).toHaveAttribute('tabindex', '-1');
  await expect(trap).not.toBeInViewport();
  await expect(page.getByRole('textbox', { name: 'Website' })).toHaveCount(0);
});

test('the contact and clearance pages pass an accessibility scan on a phone-sized screen', async ({ page }) => {
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  await page.setViewportSize({ width: 360, height: 740 });
  for (const [path, heading] of [
    ['/contact', 'Contact Us'],
    ['/wardrobeclearance', 'Join Our Wardrobe Clearance Program'],
  ] as const) {
    await openPage(page, path, heading);
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    // Nothing is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: `test-results/forms-${path.slice(1)}-360.png`, fullPage: true });
  }
});
