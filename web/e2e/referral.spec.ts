import { expect, test, type Browser, type Page } from '@playwright/test';

/**
 * The referral loop on a phone (360 px): joining through a shared link
 * shows the place in line and the share buttons, and the link's owner
 * moves up. Each person joins from a device of their own (the server
 * trusts the loopback proxy, so X-Forwarded-For tells them apart).
 */
const phone = { width: 360, height: 740 };

async function personOn(browser: Browser, ip: string): Promise<Page> {
  const context = await browser.newContext({ viewport: phone, extraHTTPHeaders: { 'X-Forwarded-For': ip } });
  return context.newPage();
}

async function join(page: Page, path: string, email: string): Promise<{ position: number; link: string }> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Join Our Wardrobe Clearance Program' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('textbox', { name: /Email address/ }).fill(email);
  await page.getByRole('button', { name: 'Join the Waitlist' }).click();
  await expect(page.getByText("You're on the list!")).toBeVisible();
  await expect(page.getByText("We'll email you when ready.")).toBeVisible();
  const share = page.getByRole('link', { name: 'Share on WhatsApp' });
  await expect(share).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible();
  const link = await page.getByRole('textbox', { name: 'Your personal link' }).inputValue();
  expect(decodeURIComponent((await share.getAttribute('href')) ?? '')).toContain(link);
  expect(await share.getAttribute('href')).toMatch(/^https:\/\/wa\.me\/\?text=/);
  // Nothing sticks out of a 360 px screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
  const position = Number((await page.getByTestId('wl-position').innerText()).replace(/\D/g, ''));
  return { position, link };
}

test('joining through a shared link at 360 px shows the place and the share button, and the owner moves up', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const run = Date.now();
  // A few people ahead (through the API, each from a device of their own), so the owner has somewhere to move.
  for (let i = 0; i < 12; i++) {
    const res = await request.post('/functions/v1/waitlist-signup', {
      data: { email: `ahead.${run}.${i}@example.com`, programName: 'Wardrobe Clearance Program', pagePath: '/wardrobeclearance' },
      headers: { 'X-Forwarded-For': `10.77.${i}.1` },
    });
    expect(res.status()).toBe(200);
    expect((await res.json()).position).toBeGreaterThan(0);
  }
  const owner = await personOn(browser, '10.78.0.1');
  const before = await join(owner, '/wardrobeclearance', `owner.${run}@example.com`);
  expect(before.position).toBeGreaterThan(12);
  const url = new URL(before.link);
  expect(url.searchParams.get('ref')).toMatch(/^[a-z2-9]{10}$/);

  const friend = await personOn(browser, '10.78.0.2');
  const joined = await join(friend, url.pathname + url.search, `friend.${run}@example.com`);
  expect(joined.position).toBe(before.position + 1);
  expect(joined.link).not.toBe(before.link);

  // The owner joins again (a repeated join answers the place): 10 places up.
  const after = await join(owner, '/wardrobeclearance', `owner.${run}@example.com`);
  expect(after.link).toBe(before.link);
  expect(after.position).toBe(before.position - 10);
});
