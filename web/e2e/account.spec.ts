import { expect as baseExpect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { readFile } from 'node:fs/promises';

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
  await page.getByRole('link', { name: 'Account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: 'Your profile' })).toBeVisible();
  await expect(page.getByText('+260971234567')).toBeVisible();
  await expect(page.getByText('Buyer', { exact: true })).toBeVisible();
  const photoUrls = await page.getByRole('img', { name: /^Photo \d$/ }).evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src));
  expect(photoUrls).toHaveLength(2);
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
  await expect(page.getByText('+260765551234')).toBeVisible();

  // Download my data: the file holds the new number and both photos.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^salaula-my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await readFile(await file.path(), 'utf8'));
  expect(data.account.email).toBe(email);
  expect(data.profile.phone_number).toBe('+260765551234');
  expect(data.images.map((i: { url: string }) => i.url).sort()).toEqual([...photoUrls].sort());
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
  for (const url of photoUrls) expect((await request.get(url)).status()).toBe(404);

  // The old password no longer signs in.
  await page.goto('/sign_up?mode=login');
  await expect(page.getByRole('heading', { name: 'WELCOME BACK!' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  await expect(page.getByText('Invalid login credentials')).toBeVisible();
  await expect(page).toHaveURL(/\/sign_up/);
});
