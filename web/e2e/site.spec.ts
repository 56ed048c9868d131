import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { test } from './fixtures';

/** Every path of the route table (src/app/routes.tsx). */
const ROUTES = [
  '/', '/index', '/contact', '/mens', '/womens', '/about', '/impact', '/privacy', '/termsandconditions',
  '/sign_up', '/reset_password', '/select_role', '/sellersignup', '/buyersignup', '/buyerandsellersignup',
  '/onboarding', '/wardrobeclearance', '/thanks', '/comingsoon', '/help', '/tracking', '/categories', '/404',
];
/** The routes that need a session (RequireAuth): a visitor is sent to /sign_up?next=... */
const SIGNED_IN_ROUTES = new Set(['/index', '/select_role', '/sellersignup', '/buyersignup', '/buyerandsellersignup', '/onboarding']);
const VIEWPORTS = [
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1280, height: 800 },
];

/** Signs a new account up through /sign_up?next=path, which brings it back to path. */
async function signUpAndOpen(page: Page, path: string) {
  await page.goto(`/sign_up?next=${encodeURIComponent(path)}`);
  // With ?next= the screen opens in sign-in mode; its text toggle switches to sign-up.
  await expect(page.getByRole('heading', { name: 'WELCOME BACK!' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'JOIN US!' })).toBeVisible();
  await page.getByLabel('Email').fill(`site-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill('Chitenge-Lusaka-2026');
  await page.getByRole('button', { name: 'CREATE AN ACCOUNT' }).click();
  await expect(page).toHaveURL(new RegExp(`${path.replace(/\//g, '\\/')}$`), { timeout: 20_000 });
  await expect(page.locator('main').first()).toBeVisible();
}

/** Opens a path and waits for the first-load skeleton to give way to the page. */
async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByTestId('page-skeleton')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('main').first()).toBeVisible();
}

function fileName(path: string) {
  return path === '/' ? 'home' : path.slice(1).replace(/[^\w]+/g, '_');
}

/** Screenshots the page at its full height after letting lazy images come in. */
async function screenshot(page: Page, file: string) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 60));
    }
    window.scrollTo(0, 0);
  });
  await page.screenshot({ path: file, fullPage: true });
}

/** axe-core in the page: the serious and critical violations, as readable lines. */
async function seriousViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return axe.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('every route at 360x740 and 1280x800', () => {
  // Each route's test opens its own page (and signs up its own account): the two workers share them.
  test.describe.configure({ mode: 'parallel' });
  for (const path of ROUTES) {
    test(`${path}: renders, fits the screen, no serious accessibility problem, screenshots`, async ({ page }, testInfo) => {
      test.setTimeout(180_000);
      // Still pictures: the screenshots are steady and axe is not slowed down by the moving ticker.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.setViewportSize({ width: VIEWPORTS[0].width, height: VIEWPORTS[0].height });
      if (SIGNED_IN_ROUTES.has(path)) {
        await open(page, path);
        expect(new URL(page.url()).pathname, 'a visitor is sent to sign in first').toBe('/sign_up');
        await signUpAndOpen(page, path);
      } else {
        await open(page, path);
      }
      expect(new URL(page.url()).pathname).toBe(path);
      for (const vp of VIEWPORTS) {
        await page.setViewportSize({ width: vp.width, height: vp.height });
        await expect(page.locator('h1').first()).toBeVisible();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `horizontal overflow in px at ${vp.width}`).toBeLessThanOrEqual(0);
        await screenshot(page, testInfo.outputPath(`${fileName(path)}-${vp.name}.png`));
        expect(await seriousViolations(page), `axe on ${path} at ${vp.width}`).toEqual([]);
      }
    });
  }
});

/** Client-side navigation, as a link click does: no reload, no first-load skeleton. */
async function go(page: Page, path: string) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForTimeout(350); // the route's loading bar
  await expect(page.getByTestId('page-skeleton')).toHaveCount(0);
  await expect(page.locator('main').first()).toBeVisible();
}

test('every internal link on the public pages leads to a page, never to the 404 page', async ({ page }) => {
  test.setTimeout(180_000);
  const seen = new Set<string>();
  const todo = ['/'];
  const broken: string[] = [];
  await open(page, '/');
  while (todo.length) {
    const path = todo.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    await go(page, path);
    const landed = new URL(page.url());
    if (landed.pathname === '/404' && path !== '/404') broken.push(path);
    const hrefs = await page.locator('a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    for (const href of hrefs) {
      const url = new URL(href, landed);
      const key = url.pathname + url.search;
      if (!seen.has(key) && !todo.includes(key)) todo.push(key);
    }
  }
  expect(broken).toEqual([]);
  for (const path of ['/', '/about', '/impact', '/privacy', '/termsandconditions', '/contact', '/wardrobeclearance', '/mens', '/womens', '/sign_up']) {
    expect([...seen]).toContain(path);
  }
});

test.describe('home page', () => {
  test('has the spec’s banners, buttons and links, each going where the spec says', async ({ page }) => {
    await open(page, '/');
    const main = page.getByRole('main');
    await expect(main.getByText('LAUNCHING SOON').first()).toBeVisible();
    await expect(main.getByRole('link', { name: 'SIGN-UP NOW' })).toHaveAttribute('href', '/sign_up');
    await expect(main.getByRole('link', { name: 'READ ABOUT US' })).toHaveAttribute('href', '/about');
    for (const name of ['START SHOPPING', 'SIGN UP NOW', 'GET STARTED', 'SCALE YOUR BUSINESS', 'BECOME A SELLER']) {
      await expect(main.getByRole('link', { name, exact: true })).toHaveAttribute('href', '/sign_up');
    }
    await expect(main.getByRole('link', { name: 'Join the Program' })).toHaveAttribute('href', '/wardrobeclearance');
    await expect(main.getByRole('link', { name: 'Learn More About Our Impact' })).toHaveAttribute('href', '/impact');
    const brands = main.getByRole('list', { name: 'Clothing brands' }).getByRole('listitem');
    await expect(brands).toHaveCount(6);
    await expect(brands.locator('img')).toHaveCount(6);
    await expect(main.getByRole('heading', { name: 'How It Works' })).toBeVisible();
    await expect(main.getByRole('heading', { name: 'How It Works' }).locator('..').getByRole('listitem')).toHaveCount(3);
    await expect(main.getByRole('heading', { name: /^Phase 1:/ })).toBeVisible();
    await expect(main.getByRole('heading', { name: /^Phase 2:/ })).toBeVisible();
  });

  test('the brand strip scrolls sideways and its images load lazily with srcset', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await open(page, '/');
    const strip = page.getByRole('list', { name: 'Clothing brands' });
    const { scrollWidth, clientWidth } = await strip.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    const img = strip.locator('img').first();
    await expect(img).toHaveAttribute('loading', 'lazy');
    await expect(img).toHaveAttribute('srcset', /200w.*400w/);
    await expect(img).toHaveAttribute('width', '200');
    await expect(page.getByRole('img', { name: /rail of colourful/ })).toHaveAttribute('loading', 'eager');
  });

  test('the ticker scrolls, and stands still for people who prefer reduced motion', async ({ page }) => {
    await open(page, '/');
    const ticker = page.getByTestId('launch-ticker');
    expect(await ticker.evaluate((el) => getComputedStyle(el).animationName)).not.toBe('none');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await ticker.evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
  });

  test('an image that fails to load keeps its placeholder background', async ({ page }) => {
    await page.route('**/images/brand-*', (route) => route.abort());
    await open(page, '/');
    const tile = page.getByRole('list', { name: 'Clothing brands' }).locator('[data-image-state]').first();
    await tile.scrollIntoViewIfNeeded();
    await expect(tile).toHaveAttribute('data-image-state', 'failed');
    expect(await tile.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(233, 228, 218)');
  });
});

test.describe('navigation', () => {
  test('desktop top bar: Contact Us, Men, Women, Impact, Sign up; main bar with search, cart badge and icons', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await open(page, '/');
    const top = page.getByRole('navigation', { name: 'Top' });
    const want = [['Contact Us', '/contact'], ['Men', '/mens'], ['Women', '/womens'], ['Impact', '/impact'], ['Sign up', '/sign_up']];
    for (const [name, href] of want) await expect(top.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Salaula home' })).toHaveAttribute('href', '/');
    const search = header.getByRole('searchbox', { name: 'Search' });
    await expect(search).toHaveAttribute('placeholder', 'Search...');
    const form = header.getByRole('search');
    expect((await form.boundingBox())!.width).toBeLessThanOrEqual(600);
    await expect(header.getByRole('link', { name: 'Cart, 6 items' })).toBeVisible();
    await expect(header.getByTestId('cart-badge')).toHaveText('6');
    await expect(header.getByRole('link', { name: 'Shopping bag' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/sign_up?mode=login');
    await search.fill('denim jacket');
    await search.press('Enter');
    await expect(page).toHaveURL(/\/categories\?q=denim%20jacket$/);
    await expect(page.getByText('denim jacket')).toBeVisible();
  });

  test('small-screen top bar: Support, Our Impact, Sign up', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await open(page, '/');
    const top = page.getByRole('navigation', { name: 'Top' });
    await expect(top.getByRole('link')).toHaveCount(3);
    await expect(top.getByRole('link', { name: 'Support' })).toHaveAttribute('href', '/contact');
    await expect(top.getByRole('link', { name: 'Our Impact' })).toHaveAttribute('href', '/impact');
    await expect(top.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/sign_up');
  });

  for (const vp of VIEWPORTS) {
    test(`side menu at ${vp.width}px: hamburger opens it, Escape and a click outside close it, focus comes back`, async ({ page }) => {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await open(page, '/');
      const burger = page.getByRole('button', { name: 'Open menu' });
      await burger.click();
      const menu = page.getByRole('dialog', { name: 'Menu' });
      await expect(menu).toBeVisible();
      const links = menu.getByRole('navigation', { name: 'Side menu' }).getByRole('link');
      await expect(links).toHaveText(['Home Page', 'Our Impact', 'About Us', 'Privacy Policy', 'Terms & Conditions', 'Sign In', 'Contact Us']);
      const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(['/', '/impact', '/about', '/privacy', '/termsandconditions', '/sign_up?mode=login', '/contact']);
      await expect.poll(() => menu.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await expect(burger).toBeFocused();

      await burger.click();
      await expect(menu).toBeVisible();
      await page.mouse.click(vp.width - 10, vp.height / 2);
      await expect(menu).toBeHidden();
      await expect(burger).toBeFocused();

      await burger.click();
      await menu.getByRole('link', { name: 'About Us' }).click();
      await expect(page).toHaveURL(/\/about$/);
    });
  }

  test('small-screen search opens from an icon, hides the logo and icons, and the back arrow closes it', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await open(page, '/');
    const header = page.getByRole('banner');
    await expect(header.getByRole('searchbox')).toHaveCount(0);
    await expect(header.getByRole('link', { name: 'Salaula home' })).toBeVisible();
    await header.getByRole('button', { name: 'Open search' }).click();
    const box = header.getByRole('searchbox', { name: 'Search' });
    await expect(box).toBeVisible();
    await expect(box).toBeFocused();
    await expect(box).toHaveAttribute('placeholder', 'Search...');
    await expect(header.getByRole('link', { name: 'Salaula home' })).toBeHidden();
    await expect(header.getByRole('link', { name: 'Cart, 6 items' })).toBeHidden();
    await expect(header.getByRole('link', { name: 'Account' })).toBeHidden();
    await expect(header.getByRole('button', { name: 'Open menu' })).toBeHidden();
    await header.getByRole('button', { name: 'Close search' }).click();
    await expect(header.getByRole('searchbox')).toHaveCount(0);
    await expect(header.getByRole('link', { name: 'Salaula home' })).toBeVisible();
    await expect(header.getByRole('button', { name: 'Open search' })).toBeFocused();

    await header.getByRole('button', { name: 'Open search' }).click();
    await header.getByRole('searchbox').fill('chitenge');
    await header.getByRole('searchbox').press('Enter');
    await expect(page).toHaveURL(/\/categories\?q=chitenge$/);
  });

  test('every control can be reached with the keyboard and shows a focus ring', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await open(page, '/');
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const info = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null; // the page itself had focus before the first Tab
        const s = getComputedStyle(el);
        const hasOutline = (st: CSSStyleDeclaration) => st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) >= 2;
        // The search box draws its ring around the whole form.
        const ring = hasOutline(s) || (el.tagName === 'INPUT' && !!el.parentElement && hasOutline(getComputedStyle(el.parentElement)));
        return { name: el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName, ring };
      });
      if (!info) continue;
      expect(info.ring, `focus ring on ${info.name}`).toBe(true);
      seen.add(info.name);
    }
    for (const name of ['Contact Us', 'Men', 'Women', 'Impact', 'Sign up', 'Open menu', 'Salaula home', 'Search', 'Cart, 6 items', 'Shopping bag', 'Account', 'SIGN-UP NOW', 'START SHOPPING']) {
      expect([...seen]).toContain(name);
    }
  });

  test('inner pages: logo to /, centred title, support and account icons, and the footer', async ({ page }) => {
    await open(page, '/about');
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Salaula home' })).toHaveAttribute('href', '/');
    await expect(header.getByRole('heading', { level: 1, name: 'About Us' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', '/contact');
    await expect(header.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/sign_up?mode=login');
    const footer = page.getByRole('contentinfo');
    const nav = footer.getByRole('navigation', { name: 'Footer' });
    const want = [['Contact us', '/contact'], ['About Us', '/about'], ['Wardrobe Clearance', '/wardrobeclearance'], ['Our Impact', '/impact'], ['Privacy Policy', '/privacy'], ['Terms and Conditions', '/termsandconditions']];
    for (const [name, href] of want) await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    await expect(footer.getByRole('heading', { name: 'Help' })).toBeVisible();
    await expect(footer.getByRole('heading', { name: 'Legal Info' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'support@salaula.co.zm' })).toHaveAttribute('href', 'mailto:support@salaula.co.zm');
    await expect(footer.getByText(`© ${new Date().getFullYear()} Salaula`)).toBeVisible();
    const social = footer.getByRole('link', { name: /^Salaula on / });
    await expect(social).toHaveCount(4);
    for (const a of await social.all()) {
      await expect(a).toHaveAttribute('target', '_blank');
      await expect(a).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(a).toHaveAttribute('href', /^https:\/\//);
    }
    await expect(footer.getByRole('img', { name: 'YouTube (coming soon)' })).toBeVisible();
    // The WhatsApp channel shows once the founders set it (none by default).
    await expect(footer.getByRole('link', { name: /WhatsApp/ })).toHaveCount(0);
  });
});

test.describe('content pages', () => {
  test('About: mission, three blurbs, Our Story, two team members, three vision pillars', async ({ page }) => {
    await open(page, '/about');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Good clothes should not be hard to find' })).toBeVisible();
    await expect(main.getByRole('region', { name: 'What Salaula does for you' }).getByRole('heading', { level: 3 })).toHaveCount(3);
    await expect(main.getByRole('heading', { name: 'Our Story' })).toBeVisible();
    const team = main.getByRole('region', { name: 'Meet Our Team' }).getByRole('article');
    await expect(team).toHaveCount(2);
    await expect(team.getByText('Founder & CEO')).toBeVisible();
    await expect(team.getByText('Senior Founding Engineer')).toBeVisible();
    await expect(team.getByRole('img')).toHaveCount(2);
    for (const pillar of ['AI-powered experience', 'Inclusive community', 'Sustainable future']) {
      await expect(main.getByRole('heading', { name: pillar })).toBeVisible();
    }
  });

  test('Impact: every figure of the spec, virtual fitting, and the upcycling waitlist', async ({ page }) => {
    await open(page, '/impact');
    const main = page.getByRole('main');
    for (const [value, label] of [
      ['45%', 'lower emissions'], ['40%', 'fewer returns'], ['12t', 'CO2 saved monthly'], ['320', 'delivery trucks off the road'],
      ['8K', 'packaging materials saved'], ['2.6B', 'pounds of textiles saved annually'], ['70%', 'less water'],
      ['85%', 'lower carbon footprint per item'], ['90%+', 'satisfaction'], ['80%', 'fewer returns'],
    ]) {
      const item = main.getByRole('listitem').filter({ hasText: value }).filter({ hasText: label });
      await expect(item.first(), `${value} ${label}`).toBeVisible();
    }
    await expect(main.getByRole('heading', { name: /Virtual fitting/ })).toBeVisible();
    await expect(main.getByRole('heading', { name: 'Upcycling Initiative' })).toBeVisible();
    await expect(main.getByRole('form', { name: /Upcycling Initiative/ }).or(main.getByRole('textbox', { name: /email/i })).first()).toBeAttached();
    await expect(page.getByRole('contentinfo')).toBeVisible();
  });

  for (const [path, title, count] of [['/termsandconditions', 'Terms and Conditions', 11], ['/privacy', 'Privacy Policy', 10]] as const) {
    test(`${title}: ${count} sections, last updated 11/09/2025, CONTACT SUPPORT`, async ({ page }) => {
      await open(page, path);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByText('Last updated 11/09/2025')).toBeVisible();
      await expect(page.getByRole('main').getByRole('region')).toHaveCount(count);
      await expect(page.getByRole('link', { name: 'CONTACT SUPPORT', exact: true })).toHaveAttribute('href', '/contact');
      await expect(page.getByRole('main')).toContainText('Republic of Zambia');
      await expect(page.getByRole('main')).toContainText('18');
      if (path === '/privacy') {
        await expect(page.getByRole('main')).toContainText('Data Protection Act No. 3 of 2021');
        await expect(page.getByRole('main')).toContainText('New Kasama, Lusaka Zambia');
        await expect(page.getByRole('main').getByRole('link', { name: 'support@salaula.co.zm' }).first()).toHaveAttribute('href', 'mailto:support@salaula.co.zm');
      }
    });
  }

  for (const path of ['/comingsoon', '/help', '/tracking', '/categories']) {
    test(`${path} shows the coming-soon page with the logo and the floating image`, async ({ page }) => {
      await open(page, path);
      await expect(page.getByRole('heading', { level: 1, name: 'Coming Soon' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Salaula home' })).toHaveAttribute('href', '/');
      await expect(page.getByTestId('floating-image')).toBeVisible();
    });
  }

  test('thank-you page thanks the visitor, asks them to follow us, and returns home', async ({ page }) => {
    await open(page, '/thanks');
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you!' })).toBeVisible();
    await expect(page.getByText(/follow us/i)).toBeVisible();
    await expect(page.getByRole('link', { name: /^Salaula on / })).toHaveCount(4);
    await page.getByRole('link', { name: 'RETURN TO HOME' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('Men and Women preview what is coming and ask people to sign up', async ({ page }) => {
    for (const [path, title] of [['/mens', 'Men'], ['/womens', 'Women']]) {
      await open(page, path);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByRole('main').getByRole('listitem')).toHaveCount(4);
      await expect(page.getByRole('main').getByRole('link', { name: 'SIGN UP NOW' })).toHaveAttribute('href', '/sign_up');
    }
  });

  test('/index sends a visitor to sign in first and back afterwards', async ({ page }) => {
    await open(page, '/index');
    await expect(page).toHaveURL(/\/sign_up\?next=%2Findex$/);
  });
});
