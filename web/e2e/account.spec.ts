import { expect as baseExpect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from './fixtures';

/**
 * My account (issue #10) on a 360 px phone against the real server: sign up,
 * onboard with two photos, open /account from the account icon, edit the
 * phone number with the onboarding form, download the data (the file holds
 * the new number), delete the account, and the old password no longer signs in.
 */

const PASSWORD = 'Chilenje-Market-2026!';
const expect = baseExpect.configure({ timeout: 15_000 });

/** Two small photos drawn in the browser. */
async function photos(page: Page) {
  const encoded = await page.evaluate(async () => {
    const out: string[] = [];
    for (const hue of [20, 200]) {
      const canvas = new OffscreenCanvas(300, 400);
      const ctx = canvas.getContext('2d')!;
      ctx.fillStyle = `hsl(${hue} 60% 50%)`;
      ctx.fillRect(0, 0, 300, 400);
      const bytes = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 })).arrayBuffer());
      out.push(btoa(String.fromCharCode(...bytes)));
    }
    return out;
  });
  return encoded.map((b, i) => ({ name: `photo-${i + 1}.jpg`, mimeType: 'image/jpeg', buffer: Buffer.from(b, 'base64') }));
}

async function fitsThePhone(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

test('a person edits, downloads and deletes their account on a 360 px phone', async ({ page, request }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 360, height: 740 });
  const email = `account-${Date.now()}@example.com`;

  // Sign up and onboard as a buyer with two photos.
  await page.goto('/sign_up');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'CREATE AN ACCOUNT' }).click();
  await expect(page).toHaveURL(/\/select_role$/);
  await page.getByRole('button', { name: /Become a Buyer/ }).click();
  await page.getByRole('button', { name: 'PROCEED' }).click();
  await expect(page).toHaveURL(/\/buyersignup\?role=buyer$/);
  await page.getByLabel('Full name', { exact: true }).fill('Chipo Mwale');
  await page.getByLabel('Height', { exact: true }).fill('165 cm');
  await page.getByLabel('Waist size', { exact: true }).fill('28 in');
  await page.getByLabel('Location', { exact: true }).fill('Chilenje, Lusaka');
  await page.getByLabel('Age', { exact: true }).fill('24');
  await page.getByLabel('Phone number', { exact: true }).fill('097 123 4567');
  await page.getByLabel('Describe the clothes you like', { exact: true }).fill('Chitenge prints and denim');
  await page.getByRole('radio', { name: 'Female' }).click();
  await page.getByLabel('Add full-body photos').setInputFiles(await photos(page));
  await expect(page.getByRole('img', { name: /^Photo \d preview$/ })).toHaveCount(2);
  await page.getByRole('checkbox', { name: 'DENIM WEAR' }).click();
  await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'DONE' }).click();
  await expect(page).toHaveURL(/\/thanks$/);

  // The account icon of the main bar leads to /account, which shows the profile as saved.
  await page.goto('/');
  await page.getByRole('link', { name: 'Account', exact: true }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: 'Your profile' })).toBeVisible();
  await expect(page.getByText('097 123 4567')).toBeVisible();
  await expect(page.getByText('Buyer', { exact: true })).toBeVisible();
  const photoUrls = await page.getByRole('img', { name: /^Photo \d$/ }).evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src));
  expect(photoUrls).toHaveLength(2);
  // The 96 px thumbnails are WebP images of twice that, not the photos as stored.
  for (const url of photoUrls) expect(new URL(url).pathname).toMatch(/^\/storage\/v1\/render\/image\/public\/user-media\//);
  await expect
    .poll(() => page.getByRole('img', { name: /^Photo \d$/ }).evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth)))
    .toEqual([192, 192]);
  const thumb = await request.get(photoUrls[0], { headers: { Accept: 'image/avif,image/webp,*/*' } });
  expect(thumb.headers()['content-type']).toBe('image/webp');
  // The photos as stored, of which the thumbnails are sized.
  const storedUrls = photoUrls.map((u) => u.replace('/render/image/public/', '/object/public/').replace(/\?.*$/, ''));
  await expect(page.getByRole('link', { name: 'Two-step sign-in' })).toHaveAttribute('href', '/account/security');
  await fitsThePhone(page);
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')).toEqual([]);

  // Edit reuses the onboarding form, prefilled.
  await page.getByRole('link', { name: 'Edit profile' }).click();
  await expect(page).toHaveURL(/\/onboarding\?role=buyer&edit=1$/);
  await expect(page.getByRole('heading', { name: 'Edit Your Profile' })).toBeVisible();
  await expect(page.getByLabel('Phone number', { exact: true })).toHaveValue('971234567');
  await expect(page.getByRole('img', { name: /^Photo \d preview$/ })).toHaveCount(2);
  await page.getByLabel('Phone number', { exact: true }).fill('076 555 1234');
  await page.getByRole('button', { name: 'SAVE CHANGES' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText('Your profile has been saved.')).toBeVisible();
  await expect(page.getByText('076 555 1234')).toBeVisible();

  // Download my data: the file holds the new number and both photos.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^salaula-my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await readFile(await file.path(), 'utf8'));
  expect(data.account.email).toBe(email);
  expect(data.profile.phone_number).toBe('+260765551234');
  expect(data.images.map((i: { url: string }) => i.url).sort()).toEqual([...storedUrls].sort());
  expect(data.consents.map((c: { kind: string }) => c.kind)).toEqual(expect.arrayContaining(['terms', 'privacy_policy']));
  await expect(page.getByText('Your data has been downloaded.')).toBeVisible();

  // Delete my account: the password is asked for; a wrong one changes nothing.
  await page.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog.getByText('your profile, with your photos and logos;')).toBeVisible();
  await dialog.getByRole('button', { name: 'DELETE MY ACCOUNT' }).click();
  await expect(dialog.getByText('Please enter your password to delete your account')).toBeVisible();
  await dialog.getByLabel('Password', { exact: true }).fill('not-my-password');
  await dialog.getByRole('button', { name: 'DELETE MY ACCOUNT' }).click();
  await expect(dialog.getByText('The password is not correct')).toBeVisible();
  await fitsThePhone(page);
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'DELETE MY ACCOUNT' }).click();
  await expect(page.getByText('Your account has been deleted.', { exact: false })).toBeVisible();
  for (const url of [...storedUrls, ...photoUrls]) expect((await request.get(url)).status()).toBe(404);

  // The old password no longer signs in.
  await page.goto('/sign_up?mode=login');
  await expect(page.getByRole('heading', { name: 'WELCOME BACK!' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  await expect(page.getByText('Invalid login credentials')).toBeVisible();
  await expect(page).toHaveURL(/\/sign_up/);
});

/** latestProofLink reads the newest proof link e-mailed to the address with `salaula admin mail` ('' while none). */
function latestProofLink(email: string): string {
  const binary = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/salaula');
  const out = execFileSync(binary, ['admin', 'mail', '--to', email, '--limit', '1', '--data', process.env.SALAULA_E2E_DATA!], {
    encoding: 'utf8',
  });
  const link = out.match(/https?:\/\/\S+\/account\/prove_email\?\S+/)?.[0];
  if (!link) return '';
  const url = new URL(link);
  return url.pathname + url.search;
}

test('My account shows what was sent with the address only after the link e-mailed to it proves it', async ({ page, request }) => {
  test.setTimeout(180_000);
  const email = `prove-${Date.now()}@example.com`;
  const message = 'Please deliver to Plot 12, Kabulonga';

  // A visitor sent a message and joined a waitlist with this address.
  const contact = await request.post('/functions/v1/contact-form-submit', {
    data: { firstName: 'Chanda', lastName: 'Phiri', email, phoneNumber: '0977123456', subject: 'other', message },
  });
  expect(contact.ok()).toBeTruthy();
  const join = await request.post('/functions/v1/waitlist-signup', { data: { email, programName: 'Upcycling Initiative' } });
  expect(join.ok()).toBeTruthy();

  // An account made with the address does not see them until it proves the address.
  await page.goto('/sign_up');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'CREATE AN ACCOUNT' }).click();
  await expect(page).toHaveURL(/\/select_role$/);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Messages and waitlist sign-ups' });
  await expect(section.getByText('Prove this address to see the messages and waitlist sign-ups sent with it.')).toBeVisible();
  await expect(page.getByText(message)).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')).toEqual([]);

  // The link is e-mailed to the address.
  await section.getByRole('button', { name: 'Send me a link' }).click();
  await expect(section.getByRole('status')).toContainText(`We have sent a link to ${email}.`);
  await expect.poll(() => latestProofLink(email)).toMatch(/^\/account\/prove_email\?token_hash=[^&]+$/);

  // Opening it changes nothing until the button is pressed.
  await page.goto(latestProofLink(email));
  await expect(page.getByText(`Press the button to prove that ${email} is yours.`, { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Prove this address' }).click();

  // My account now shows what was sent with the address.
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText('Your e-mail address is proven.')).toBeVisible();
  await expect(section.getByText(`Sent with ${email}: 1 message and 1 waitlist sign-up.`)).toBeVisible();
  await expect(section.getByText(message, { exact: false })).toBeVisible();
  await expect(section.getByText(/Upcycling Initiative: joined/)).toBeVisible();
  await expect(section.getByRole('button', { name: 'Send me a link' })).toHaveCount(0);

  // The link worked once.
  await page.goto(latestProofLink(email));
  await page.getByRole('button', { name: 'Prove this address' }).click();
  await expect(page.getByText(/This link has expired, has already been used/)).toBeVisible();
});
