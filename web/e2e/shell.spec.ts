import { expect } from '@playwright/test';
import { test } from './fixtures';

test('the home page opens after the first-load skeleton', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Top' })).toBeVisible();
  await expect(page.getByTestId('page-skeleton')).toHaveCount(0);
});

test('an unknown path redirects to the 404 page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByText('Oooppss!!')).toBeVisible();
  await expect(
    page.getByText('Hey friend, the page you are looking for does not exist yet or another error occurred.'),
  ).toBeVisible();
  await page.getByRole('link', { name: 'RETURN TO HOME' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the app is served compressed with the right caching', async ({ request }) => {
  const html = await request.get('/about', { headers: { 'Accept-Encoding': 'gzip' } });
  expect(html.status()).toBe(200);
  expect(html.headers()['cache-control']).toBe('no-cache');
  expect(html.headers()['content-security-policy']).toContain("script-src 'self'");
  // The entry, named by the inline start-up script (vite.config.ts).
  const script = (await html.text()).match(/"(\/assets\/[^"]+\.js)"/)?.[1];
  expect(script).toBeTruthy();
  const asset = await request.get(script!, { headers: { 'Accept-Encoding': 'gzip' } });
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(asset.headers()['content-encoding']).toBe('gzip');
});
