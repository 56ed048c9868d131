import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from './AppRouter';
import { showsTopNav } from './AppLayout';
import { preloadRoute, ROUTES } from './routes';

function renderAt(path: string) {
  let navigate: ReturnType<typeof useNavigate> = () => {};
  function Grab() {
    navigate = useNavigate();
    return null;
  }
  render(
    <MemoryRouter initialEntries={[path]}>
      <Grab />
      <AppRoutes />
    </MemoryRouter>,
  );
  return { navigate: (to: string) => act(() => navigate(to)) };
}

/** Lets the first-load skeleton run out and the lazy page load. */
async function finishFirstLoad() {
  await act(async () => {
    vi.advanceTimersByTime(1000);
  });
}

describe('router', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the full skeleton for the first second, then the page', async () => {
    renderAt('/404');
    expect(screen.getByTestId('page-skeleton')).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(999);
    });
    expect(screen.getByTestId('page-skeleton')).toBeInTheDocument();
    await finishFirstLoad();
    expect(await screen.findByText('Oooppss!!')).toBeInTheDocument();
  });

  it('redirects an unknown path to the 404 page', async () => {
    renderAt('/no/such/page');
    await finishFirstLoad();
    expect(await screen.findByText('Oooppss!!')).toBeInTheDocument();
    expect(
      screen.getByText('Hey friend, the page you are looking for does not exist yet or another error occurred.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'RETURN TO HOME' })).toHaveAttribute('href', '/');
  });

  it('shows the loading bar for 300 ms and scrolls to the top at 0, 50, 150 and 500 ms on a path change', async () => {
    const { navigate } = renderAt('/404');
    await finishFirstLoad();
    await screen.findByText('Oooppss!!');
    const scrolledAt: number[] = [];
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {
      scrolledAt.push(Date.now());
    });
    // Load the About page's module first, so the timing measures the layout, not the module's transform.
    await preloadRoute('/about');
    const navigatedAt = Date.now();
    navigate('/about');
    // The bar shows as soon as the new page renders (its code loads lazily).
    expect(await screen.findByRole('progressbar', { name: 'Loading page' })).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(320);
    });
    expect(screen.queryByRole('progressbar', { name: 'Loading page' })).not.toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(600);
    });
    expect(scrolledAt).toHaveLength(4);
    const offsets = scrolledAt.map((t) => t - scrolledAt[0]);
    [0, 50, 150, 500].forEach((want, i) => expect(Math.abs(offsets[i] - want)).toBeLessThanOrEqual(15));
    expect(scrolledAt[0]).toBeGreaterThanOrEqual(navigatedAt); // after the lazy page loaded: no fixed bound on a busy machine
  });

  it('renders the top navigation only on / and /sign_up', () => {
    expect(showsTopNav('/')).toBe(true);
    expect(showsTopNav('/sign_up')).toBe(true);
    for (const path of ['/about', '/contact', '/404', '/index', '/select_role']) {
      expect(showsTopNav(path)).toBe(false);
    }
  });

  it('has every route of the spec route table', () => {
    const paths = ROUTES.map((r) => r.path);
    for (const path of [
      '/', '/index', '/contact', '/mens', '/womens', '/about', '/impact', '/privacy', '/termsandconditions',
      '/sign_up', '/select_role', '/sellersignup', '/buyersignup', '/buyerandsellersignup', '/wardrobeclearance',
      '/thanks', '/comingsoon', '/help', '/tracking', '/categories', '/404',
    ]) {
      expect(paths).toContain(path);
    }
  });
});
