import { test } from './fixtures';
import AxeBuilder from '@axe-core/playwright';
import { acceptAlert, chooseRole, expect, makePictures, PASSWORD, profileMe, signInAgain, signUp, storedImages } from './onboard';

/**
 * Onboarding end to end against the real server: a new account signs up on
 * /sign_up, completes the buyer flow with three photos (or the seller flow
 * with two logos), lands on /thanks; get-profile-me then shows the role and
 * the stored images; signing in again sends the account to /index.
 */

test.describe('onboarding', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a new buyer on a 360 px phone completes the four steps with three photos and lands on /thanks', async ({ page, request }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const email = `buyer-${Date.now()}@example.com`;
    await signUp(page, email);
    await chooseRole(page, 'Become a Buyer');
    await expect(page).toHaveURL(/\/buyersignup\?role=buyer$/);
    await expect(page.getByRole('heading', { name: 'Create Your Buyer Profile' })).toBeVisible();
    const axe = await new AxeBuilder({ page }).include('main').analyze();
    expect(axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')).toEqual([]);

    await page.getByLabel('Full name', { exact: true }).fill('Chipo Mwale');
    await page.getByLabel('Height', { exact: true }).fill('165 cm');
    await page.getByLabel('Waist size', { exact: true }).fill('28 in');
    await page.getByLabel('Location', { exact: true }).fill('Kabulonga, Lusaka');
    await page.getByLabel('Age', { exact: true }).fill('24');
    await page.getByLabel('Inspiration', { exact: true }).selectOption('Historical eras e.g. 90s');
    await page.getByLabel('Phone number', { exact: true }).fill('097 123 4567');
    await page.getByLabel('Describe the clothes you like', { exact: true }).fill('Bright chitenge prints and vintage denim');
    await expect(page.getByRole('button', { name: 'Voice input (not available yet)' })).toBeDisabled();
    await page.getByRole('radio', { name: 'Female' }).click();

    const photos = await makePictures(page, [
      { name: 'front.jpg', width: 3000, height: 4000, type: 'image/jpeg' },
      { name: 'side view.png', width: 600, height: 900, type: 'image/png' },
      { name: 'back.jpg', width: 480, height: 640, type: 'image/jpeg' },
    ]);
    await page.getByLabel('Add full-body photos').setInputFiles(photos);
    await expect(page.getByRole('img', { name: /^Photo \d preview$/ })).toHaveCount(3);
    await expect(page.getByRole('button', { name: /Add full-body photos \(3\/3\)/ })).toBeDisabled();

    await page.getByRole('checkbox', { name: 'DENIM WEAR' }).click();
    await page.getByRole('checkbox', { name: 'RETRO OUTFITS' }).click();
    await expect(page.getByRole('checkbox', { name: 'DENIM WEAR' })).toHaveAttribute('aria-checked', 'true');
    await page.getByRole('checkbox', { name: 'Join the Wardrobe Clearance Program' }).check();
    await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    const dialog = acceptAlert(page);
    await page.getByRole('button', { name: 'DONE' }).click();
    expect(await dialog).toBe('Profile created successfully!');
    await expect(page).toHaveURL(/\/thanks$/);

    const profile = await profileMe(page, request);
    expect(profile).toMatchObject({
      role: 'buyer',
      full_name: 'Chipo Mwale',
      phone_number: '+260971234567',
      gender: 'Female',
      clothing_aesthetics: ['DENIM WEAR', 'RETRO OUTFITS'],
      wants_clearance_program: true,
    });
    const urls = profile.body_photo_urls as string[];
    expect(urls).toHaveLength(3);
    expect(profile.profile_pic_url).toBe(urls[0]);
    const stored = await storedImages(page, request, urls);
    // The 3000 x 4000 photo was shrunk in the browser before upload (the server only strips metadata).
    expect(stored[0]).toMatchObject({ width: 1200, height: 1600 });
    expect(stored[0].bytes).toBeLessThan(photos[0].buffer.length / 4);
    // A small photo already under 1600 px and 300 KB is sent as it is.
    expect(stored[2]).toMatchObject({ width: 480, height: 640, type: 'image/jpeg' });
    console.log(
      `buyer photos: picked ${photos.map((p) => p.buffer.length).join(', ')} bytes; ` +
        `stored ${stored.map((s) => `${s.width}x${s.height} ${s.type} ${s.bytes}`).join(', ')}`,
    );

    await signInAgain(page, email);
    await expect(page).toHaveURL(/\/index$/);
  });

  test("on a 360 px phone, the seller form's empty submit leaves the first wrong field focused and in view", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await signUp(page, `seller-empty-${Date.now()}@example.com`);
    await chooseRole(page, 'Become a Seller');
    await expect(page).toHaveURL(/\/sellersignup\?role=seller$/);
    // Submit from the bottom of the form, as a person who scrolled down does.
    const submit = page.getByRole('button', { name: 'FINISH & CREATE PROFILE' });
    await submit.scrollIntoViewIfNeeded();
    await submit.click();
    const first = page.getByLabel('Full name', { exact: true });
    await expect(first).toBeFocused();
    await expect(first).toBeInViewport();
    await expect(first).toHaveAttribute('aria-invalid', 'true');
    // The error summary is announced: it is an alert with the messages.
    await expect(page.getByRole('alert').filter({ hasText: 'Full name is required' })).toBeVisible();
  });

  test('a new seller completes the seller form with two logos and lands on /thanks', async ({ page, request }) => {
    const email = `seller-${Date.now()}@example.com`;
    await signUp(page, email);
    await chooseRole(page, 'Become a Seller');
    await expect(page).toHaveURL(/\/sellersignup\?role=seller$/);
    await expect(page.getByRole('heading', { name: 'Create Your Seller Profile' })).toBeVisible();
    const axe = await new AxeBuilder({ page }).include('main').analyze();
    expect(axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')).toEqual([]);

    // The spec's rules answer first, per field.
    await page.getByRole('button', { name: 'FINISH & CREATE PROFILE' }).click();
    await expect(page.getByLabel('Business name', { exact: true })).toHaveAccessibleDescription('Business name is required');

    await page.getByLabel('Full name', { exact: true }).fill('Mwila Banda');
    await page.getByLabel('Phone number', { exact: true }).fill('0961234567');
    await page.getByLabel('Location', { exact: true }).fill('Kamwala Market, Lusaka');
    await page.getByLabel('Age', { exact: true }).fill('31');
    await page.getByRole('radio', { name: 'Male', exact: true }).click();
    await page.getByLabel('Business name', { exact: true }).fill('Mwila Thrift');
    await page.getByLabel('Registration number (optional)').fill('PACRA 120190012345');
    await page.getByRole('radio', { name: /Street Vendor/ }).check();
    const logos = await makePictures(page, [
      { name: 'logo.png', width: 512, height: 512, type: 'image/png' },
      { name: 'shop front.jpg', width: 2400, height: 1600, type: 'image/jpeg' },
    ]);
    await page.getByLabel('Add logo or brand images').setInputFiles(logos);
    await expect(page.getByRole('img', { name: /^Logo \d preview$/ })).toHaveCount(2);
    await page.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }).check();

    const dialog = acceptAlert(page);
    await page.getByRole('button', { name: 'FINISH & CREATE PROFILE' }).click();
    expect(await dialog).toBe('Seller profile created successfully!');
    await expect(page).toHaveURL(/\/thanks$/);

    const profile = await profileMe(page, request);
    expect(profile).toMatchObject({
      role: 'seller',
      business_name: 'Mwila Thrift',
      registration_number: 'PACRA 120190012345',
      business_mode: 'Street Vendor',
      phone_number: '+260961234567',
    });
    const urls = profile.logo_urls as string[];
    expect(urls).toHaveLength(2);
    for (const url of urls) expect(url).toMatch(/\/storage\/v1\/object\/public\/user-media\/[^/]+\/logos\/\d+-/);
    await storedImages(page, request, urls);

    await signInAgain(page, email);
    await expect(page).toHaveURL(/\/index$/);
  });

  test('a visitor without a session is sent to /sign_up and back to the page after', async ({ page }) => {
    await page.goto('/buyerandsellersignup');
    await expect(page).toHaveURL(/\/sign_up\?next=%2Fbuyerandsellersignup$/);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'JOIN US!' })).toBeVisible();
    await page.getByLabel('Email').fill(`visitor-${Date.now()}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'CREATE AN ACCOUNT' }).click();
    await expect(page).toHaveURL(/\/buyerandsellersignup$/);
    await expect(page.getByRole('heading', { name: 'Create Your Buyer and Seller Profile' })).toBeVisible();
  });
});
