import { Suspense, startTransition, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { FIRST_LOAD_SKELETON_MS, ROUTE_LOADING_BAR_MS, SCROLL_RESET_DELAYS_MS, TOP_NAV_PATHS } from '../config/constants';
import { PageSkeleton } from '../components/PageSkeleton';
import { TopNav } from '../components/TopNav';
import { rememberPage } from '../lib/serviceWorker';
import { sendPageView } from '../lib/analytics';
import { afterLoadWhenIdle } from '../lib/idle';

/** True for the paths that show the top navigation bar (/ and /sign_up). */
export function showsTopNav(pathname: string): boolean {
  return (TOP_NAV_PATHS as readonly string[]).includes(pathname);
}

/**
 * firstSkeletonMs is how long the first-load skeleton still has to show: the
 * spec's second counts from when the page started loading, since index.html
 * paints the skeleton before any script runs (outside a browser, e.g. in unit
 * tests, there is no page load to count from and the full second is used).
 */
function firstSkeletonMs(): number {
  const loaded = typeof performance !== 'undefined' && performance.getEntriesByType?.('navigation').length > 0;
  return loaded ? Math.max(0, FIRST_LOAD_SKELETON_MS - performance.now()) : FIRST_LOAD_SKELETON_MS;
}

/**
 * The shared layout of every route: the full skeleton for the first second,
 * then the page (skeletonMs: how long the skeleton still shows; the build's
 * prerendering, src/prerender.tsx, renders the page at once); on each later path change a thin loading bar for 300 ms and
 * a scroll to the top at 0, 50, 150 and 500 ms.
 */
export function AppLayout({ skeletonMs = firstSkeletonMs }: { skeletonMs?: () => number }) {
  const { pathname, search } = useLocation();
  // A page that starts after the first second (a slow phone) shows at once, without the skeleton again.
  const [booting, setBooting] = useState(() => skeletonMs() > 0);
  const lastPath = useRef(pathname);
  const [routeLoading, setRouteLoading] = useState(false);

  useEffect(() => {
    // A transition: React renders the page in slices, the browser staying responsive
    // between them (no long task), and the skeleton stays until the page is ready.
    const t = window.setTimeout(() => startTransition(() => setBooting(false)), skeletonMs());
    return () => window.clearTimeout(t);
  }, [skeletonMs]);

  useEffect(() => {
    void rememberPage(pathname + search);
  }, [pathname, search]);

  // The session ended elsewhere (lib/sessionEnded.ts): on to sign-in, which says so and comes back here.
  const navigate = useNavigate();
  useEffect(() => {
    const toSignIn = () => {
      if (pathname !== '/sign_up') navigate(`/sign_up?next=${encodeURIComponent(pathname + search)}`, { replace: true });
    };
    window.addEventListener('salaula-session-ended', toSignIn);
    return () => window.removeEventListener('salaula-session-ended', toSignIn);
  }, [pathname, search, navigate]);

  // One page view per route (the production build only, like the service worker).
  useEffect(() => {
    // Sent at an idle moment (the first view also waits for the page's load), never during a render.
    if (import.meta.env.PROD) afterLoadWhenIdle(() => sendPageView(pathname, search));
    // Runs on path changes only; search is read, not watched.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);

  useEffect(() => {
    const timers = SCROLL_RESET_DELAYS_MS.map((ms) => window.setTimeout(() => window.scrollTo(0, 0), ms));
    if (pathname !== lastPath.current) {
      lastPath.current = pathname;
      // The bar is a 300 ms effect of the path change itself, started and ended by this effect's clock.
      setRouteLoading(true);
      timers.push(window.setTimeout(() => setRouteLoading(false), ROUTE_LOADING_BAR_MS));
    }
    return () => timers.forEach((t) => window.clearTimeout(t));
  }, [pathname]);

  if (booting) return <PageSkeleton />;

  return (
    <div className="app">
      {routeLoading && (
        // A thin bar styled by index.html's inline CSS (.route-bar): no progress component on first load.
        // It sits in a named region, so that no content of the page is outside a landmark.
        <section aria-label="Page loading">
          <div className="route-bar" role="progressbar" aria-label="Loading page" />
        </section>
      )}
      {showsTopNav(pathname) && <TopNav />}
      <Suspense fallback={<PageSkeleton />}>
        <Outlet />
      </Suspense>
    </div>
  );
}
