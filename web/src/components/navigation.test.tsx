import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TopNav } from './TopNav';
import { Footer } from './Footer';
import { PageHeader } from './PageHeader';
import { SocialLinks, openThroughTemporaryWindow } from './SocialLinks';
import { setSupabaseForTests } from '../lib/supabase';
import { DEFAULT_SITE_SETTINGS, setSiteSettingsForTests } from '../lib/siteSettings';

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="location">{pathname + search}</output>;
}

function renderWithRouter(ui: React.ReactNode, at = '/') {
  return render(
    <MemoryRouter initialEntries={[at]}>
      <Routes>
        <Route
          path="*"
          element={
            <>
              {ui}
              <Where />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(() => {
  setSupabaseForTests(undefined);
  vi.restoreAllMocks();
});

describe('TopNav', { timeout: 20_000 }, () => {
  it('has the top bar links, the logo, search, a cart badge of 6 and labelled icons', () => {
    renderWithRouter(<TopNav />);
    const top = screen.getByRole('navigation', { name: 'Top' });
    for (const [name, href] of [['Contact Us', '/contact'], ['Men', '/mens'], ['Women', '/womens'], ['Impact', '/impact'], ['Support', '/contact'], ['Our Impact', '/impact']]) {
      expect(within(top).getByRole('link', { name })).toHaveAttribute('href', href);
    }
    expect(within(top).getAllByRole('link', { name: 'Sign up' })[0]).toHaveAttribute('href', '/sign_up');
    expect(screen.getByRole('link', { name: 'Salaula home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveAttribute('placeholder', 'Search...');
    expect(screen.getByRole('link', { name: 'Cart, 6 items' })).toHaveTextContent('6');
    expect(screen.getByRole('link', { name: 'Shopping bag' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/sign_up?mode=login');
  });

  it('opens the side menu from the hamburger with the spec’s links, and Escape closes it and gives focus back', async () => {
    const user = userEvent.setup();
    renderWithRouter(<TopNav />);
    const burger = screen.getByRole('button', { name: 'Open menu' });
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    await user.click(burger);
    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    expect(burger).toHaveAttribute('aria-expanded', 'true');
    const links = within(menu).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Home Page', '/'],
      ['Our Impact', '/impact'],
      ['About Us', '/about'],
      ['Privacy Policy', '/privacy'],
      ['Terms & Conditions', '/termsandconditions'],
      ['Sign In', '/sign_up?mode=login'],
      ['Contact Us', '/contact'],
    ]);
    await waitFor(() => expect(menu.contains(document.activeElement)).toBe(true));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument());
    expect(burger).toHaveFocus();
    expect(burger).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes the side menu on a click outside it (the backdrop)', async () => {
    const user = userEvent.setup();
    renderWithRouter(<TopNav />);
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    const backdrop = document.querySelector('.ui-overlay') as HTMLElement;
    expect(backdrop).not.toBeNull();
    await user.click(backdrop);
    await waitFor(() => expect(menu).not.toBeInTheDocument());
  });

  it('closes the side menu when a link is followed', async () => {
    const user = userEvent.setup();
    renderWithRouter(<TopNav />);
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    await user.click(within(menu).getByRole('link', { name: 'About Us' }));
    expect(screen.getByTestId("location")).toHaveTextContent('/about');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument());
  });

  it('small-screen search: the icon opens a focused box with a back arrow; the arrow closes it and focus returns', async () => {
    const user = userEvent.setup();
    renderWithRouter(<TopNav />);
    expect(screen.getAllByRole('searchbox')).toHaveLength(1); // the wide-screen box only
    await user.click(screen.getByRole('button', { name: 'Open search' }));
    const boxes = screen.getAllByRole('searchbox', { name: 'Search' });
    expect(boxes).toHaveLength(2);
    expect(boxes[0]).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Open search' })).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByRole('button', { name: 'Close search' }));
    expect(screen.getAllByRole('searchbox')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Open search' })).toHaveFocus();
  });

  it('small-screen search closes on Escape, and a search goes to /categories with the words', async () => {
    const user = userEvent.setup();
    renderWithRouter(<TopNav />);
    await user.click(screen.getByRole('button', { name: 'Open search' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('button', { name: 'Close search' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open search' }));
    await user.keyboard('denim jacket{Enter}');
    expect(screen.getByTestId("location")).toHaveTextContent('/categories?q=denim%20jacket');
    expect(screen.queryByRole('button', { name: 'Close search' })).not.toBeInTheDocument();
  });

  it('ignores an empty search', async () => {
    const user = userEvent.setup();
    renderWithRouter(<TopNav />, '/sign_up');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), '   {Enter}');
    expect(screen.getByTestId("location")).toHaveTextContent(/^\/sign_up$/);
  });
});

describe('Footer', () => {
  it('has the Help and Legal Info links, the support e-mail from the settings, the year and the social links', async () => {
    setSupabaseForTests(undefined, { url: 'http://x', anonKey: 'k', supportEmail: 'help@example.zm' });
    renderWithRouter(<Footer />);
    const nav = screen.getByRole('navigation', { name: 'Footer' });
    expect(within(nav).getByRole('heading', { name: 'Help' })).toBeInTheDocument();
    expect(within(nav).getByRole('heading', { name: 'Legal Info' })).toBeInTheDocument();
    expect(within(nav).getAllByRole('link').map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Contact us', '/contact'],
      ['About Us', '/about'],
      ['Wardrobe Clearance', '/wardrobeclearance'],
      ['Our Impact', '/impact'],
      ['Privacy Policy', '/privacy'],
      ['Terms and Conditions', '/termsandconditions'],
    ]);
    expect(await screen.findByRole('link', { name: 'help@example.zm' })).toHaveAttribute('href', 'mailto:help@example.zm');
    expect(screen.getByText(`© ${new Date().getFullYear()} Salaula. All rights reserved.`)).toBeInTheDocument();
    // The WhatsApp channel is not shown until it is set.
    expect(screen.getAllByRole('link', { name: /^Salaula on / })).toHaveLength(4);
  });

  it('shows the default support e-mail when the settings cannot be read', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('offline'));
    renderWithRouter(<Footer />);
    await act(async () => {});
    expect(screen.getByRole('link', { name: 'support@salaula.co.zm' })).toHaveAttribute('href', 'mailto:support@salaula.co.zm');
  });
});

describe('PageHeader', () => {
  it('shows the logo link home, the page title as the heading, and labelled support and account links', () => {
    renderWithRouter(<PageHeader title="Our Impact" />);
    expect(screen.getByRole('heading', { level: 1, name: 'Our Impact' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Salaula home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', '/contact');
    expect(screen.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/sign_up?mode=login');
  });
});

/** withWhatsAppChannel makes the site settings show a WhatsApp channel (none by default). */
function withWhatsAppChannel() {
  setSiteSettingsForTests({ ...DEFAULT_SITE_SETTINGS, social: [...DEFAULT_SITE_SETTINGS.social, { network: 'whatsapp', url: 'https://wa.me/260971234567' }] });
}

describe('SocialLinks', () => {
  afterEach(() => setSiteSettingsForTests(undefined));

  it('opens each network in a new tab without giving it a way back, and shows the placeholder as coming soon', () => {
    render(<SocialLinks />);
    const links = screen.getAllByRole('link');
    expect(links.map((l) => l.getAttribute('aria-label'))).toEqual([
      'Salaula on Facebook (opens in a new tab)',
      'Salaula on Instagram (opens in a new tab)',
      'Salaula on X (opens in a new tab)',
      'Salaula on LinkedIn (opens in a new tab)',
    ]);
    for (const l of links) {
      expect(l).toHaveAttribute('target', '_blank');
      expect(l).toHaveAttribute('rel', 'noopener noreferrer');
    }
    expect(screen.getByRole('img', { name: 'YouTube (coming soon)' })).toBeInTheDocument();
  });

  it('on a phone, opens WhatsApp through a temporary window that closes itself after 100 ms', async () => {
    vi.useFakeTimers();
    try {
      const fake = { opener: {} as unknown, location: { href: '' }, close: vi.fn() };
      const open = vi.spyOn(window, 'open').mockReturnValue(fake as unknown as Window);
      window.matchMedia = vi.fn().mockReturnValue({ matches: true }) as unknown as typeof window.matchMedia;
      withWhatsAppChannel();
      render(<SocialLinks only={['WhatsApp']} />);
      await act(async () => {});
      const link = screen.getByRole('link', { name: /WhatsApp/ });
      const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
      link.dispatchEvent(click);
      expect(click.defaultPrevented).toBe(true);
      expect(open).toHaveBeenCalledWith('', '_blank');
      expect(fake.opener).toBeNull();
      expect(fake.location.href).toBe(link.getAttribute('href'));
      vi.advanceTimersByTime(99);
      expect(fake.close).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(fake.close).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('on a computer, or when pop-ups are blocked, lets the link open its own new tab', async () => {
    window.matchMedia = vi.fn().mockReturnValue({ matches: false }) as unknown as typeof window.matchMedia;
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    withWhatsAppChannel();
    render(<SocialLinks only={['WhatsApp']} />);
    await act(async () => {});
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    screen.getByRole('link', { name: /WhatsApp/ }).dispatchEvent(click);
    expect(open).not.toHaveBeenCalled();
    expect(openThroughTemporaryWindow('https://example.com')).toBe(false);
  });
});
