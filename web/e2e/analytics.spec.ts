import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, type Page } from '@playwright/test';
import { makeOperator, openConsole, uniqueEmail } from './console';
import { test } from './fixtures';

/**
 * First-party analytics end to end, in Chromium against the real `salaula
 * serve`: a visitor arrives from a link with `?utm_source=radio`, sees three
 * pages and joins a waitlist; on the same day an operator on a 360 px phone
 * finds that visitor in the console's "Visits and sign-ups": one more
 * visitor, radio among the UTM sources with one more visitor, one more
 * "Joined a waitlist" in the funnel.
 *
 * Other tests of the run visit pages too, so the test compares the figures
 * before and after. The operator's browser sends `DNT: 1`, so the operator's
 * own pages are not counted; the visitor has a fresh browser context without
 * it and a user agent of its own (a visitor is one IP and user agent a day,
 * and every test browser here has the same IP).
 */

// Patient: on a busy machine the console's lazy chunk can take many seconds to start.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 240_000 });

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

const toNumber = (s: string) => Number(s.replace(/[^0-9]/g, ''));

interface Figures {
  visitors: number;
  today: number;
  radio: number;
  joined: number;
}

/** figures reads the panel as an operator sees it: the range's visitors, today's row, radio's visitors and the funnel's waitlist step. */
async function figures(page: Page): Promise<Figures> {
  const panel = page.getByRole('region', { name: 'Visits and sign-ups' });
  const summary = panel.getByText(/\(UTC days\): [\d,]+ visitors?/);
  await expect(summary).toBeVisible();
  const visitors = toNumber(/: ([\d,]+) visitors?/.exec(await summary.innerText())![1]);
  // The funnel shows when anything was counted (a waitlist join is counted even without page views).
  const funnel = panel.getByRole('list', { name: 'Funnel' });
  const step = funnel.getByRole('listitem', { name: /^Joined a waitlist: / });
  const joined = (await funnel.count()) ? toNumber(/^Joined a waitlist: ([\d,]+)/.exec((await step.getAttribute('aria-label')) ?? '')![1]) : 0;
  if (visitors === 0) return { visitors, today: 0, radio: 0, joined };
  const radioRow = panel.getByRole('table', { name: 'UTM sources' }).getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'radio', exact: true }) });
  const radio = (await radioRow.count()) ? toNumber(await radioRow.getByRole('cell').last().innerText()) : 0;
  const details = panel.locator('details');
  if (!(await details.evaluate((d: HTMLDetailsElement) => d.open))) await panel.getByText('The figures per day').click();
  const todayRow = panel
    .getByRole('table', { name: 'Visits and sign-ups per day' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new Date().toISOString().slice(0, 10), exact: true }) });
  const today = toNumber(await todayRow.getByRole('cell').first().innerText());
  return { visitors, today, radio, joined };
}

test.use({ viewport: { width: 360, height: 740 }, extraHTTPHeaders: { DNT: '1' } });

test('a visitor from a radio link who joins a waitlist shows up in the console the same day', async ({ page, request, browser, baseURL }) => {
  const founder = uniqueEmail('founder-analytics');
  const secret = await makeOperator(request, founder);
  await openConsole(page, founder, secret);
  await expect(page.getByRole('heading', { name: 'Visits and sign-ups', level: 2 })).toBeVisible();
  await expect(page.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
  const before = await figures(page);

  // The visitor: a browser of their own, from a link the radio station read out. (A context made
  // here inherits this file's options: extraHTTPHeaders is emptied so that it sends no DNT.)
  const visitor = await browser.newContext({ baseURL, extraHTTPHeaders: {}, userAgent: `${CHROME} e2e-${Date.now()}`, viewport: { width: 390, height: 844 } });
  const v = await visitor.newPage();
  await v.goto('/?utm_source=radio');
  await v.getByRole('main').getByRole('link', { name: 'Learn More About Our Impact' }).click();
  await expect(v).toHaveURL(/\/impact$/);
  await v.getByRole('contentinfo').getByRole('link', { name: 'Wardrobe Clearance', exact: true }).click();
  await expect(v).toHaveURL(/\/wardrobeclearance$/);
  // The Impact page has a waitlist form too and stays on screen until the next page's chunk has
  // loaded: type into the Wardrobe Clearance Program's own form.
  const form = v.getByRole('form', { name: 'Join the Wardrobe Clearance Program waitlist' });
  await form.getByRole('textbox', { name: /Email address/ }).fill(uniqueEmail('radio-listener'));
  await form.getByRole('button', { name: 'Join the Waitlist' }).click();
  await expect(v.getByText("You're on the list!")).toBeVisible();
  await visitor.close();

  // The operator reloads the console: one more visitor today, from radio, and one more waitlist join.
  await expect
    .poll(
      async () => {
        await page.reload();
        return figures(page);
      },
      { timeout: 60_000, intervals: [1_000, 2_000, 5_000] },
    )
    .toEqual({ visitors: before.visitors + 1, today: before.today + 1, radio: before.radio + 1, joined: before.joined + 1 });

  const panel = page.getByRole('region', { name: 'Visits and sign-ups' });
  await expect(panel.getByRole('figure', { name: /^Visitors and waitlist sign-ups per day From / })).toBeVisible();
  await expect(panel.getByRole('table', { name: 'Top pages' }).getByRole('rowheader', { name: '/wardrobeclearance', exact: true })).toBeVisible();
  // The 7-day range asks again and still has today's visitor.
  await page.getByRole('button', { name: '7 days' }).click();
  await expect(page.getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
  await expect(panel.getByRole('table', { name: 'UTM sources' }).getByRole('rowheader', { name: 'radio', exact: true })).toBeVisible();

  const results = await new AxeBuilder({ page }).include('section[aria-labelledby="analytics-title"]').analyze();
  expect(results.violations.map((x) => `${x.id}: ${x.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
