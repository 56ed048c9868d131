/// <reference types="vite/client" />
import { afterLoadWhenIdle } from './idle';

/** The service worker's cache of pages seen (vite.config.ts, the navigation route). */
export const PAGES_CACHE = 'pages';

/**
 * registerServiceWorker registers the service worker that vite-plugin-pwa
 * builds (/sw.js: the precached shell and public pages, the offline page)
 * once the page has loaded and the main thread is idle (at most 3 s after the
 * load), so neither its start nor its precaching competes with the first
 * paint or the page's own start. Only in the production build: `npm run dev`
 * has no service worker.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((err) => {
      console.error('Could not register the service worker', err);
    });
  };
  afterLoadWhenIdle(register);
}

/** The service worker's cache of code and images (vite.config.ts, the assets route). */
export const ASSETS_CACHE = 'assets';

let assetsKept = false;

/**
 * keepLoadedAssets adds to the worker's cache of code and images what this
 * page loaded before the worker took charge of it (on a first visit: the
 * shell and the page's own code), so the page also opens offline. They come
 * from the browser's HTTP cache: no download. Later loads pass through the
 * worker, which keeps them itself.
 */
async function keepLoadedAssets(): Promise<void> {
  if (assetsKept) return;
  assetsKept = true;
  const urls = performance
    .getEntriesByType('resource')
    .map((e) => new URL(e.name))
    .filter((u) => u.origin === location.origin && /^\/(assets|images|icons)\//.test(u.pathname))
    .map((u) => u.pathname);
  const cache = await caches.open(ASSETS_CACHE);
  for (const url of new Set(urls)) {
    if (!(await cache.match(url))) await cache.add(url);
  }
}

/**
 * rememberPage keeps the page at path for offline use. The service worker
 * keeps every page opened by the browser itself; a page reached inside the
 * app (no page load) or opened before the worker was installed is added here,
 * once (it costs one small request for the page's HTML), with the code and
 * images loaded before the worker took charge.
 */
export async function rememberPage(path: string): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator) || !('caches' in window)) return;
  try {
    await navigator.serviceWorker.ready;
    const cache = await caches.open(PAGES_CACHE);
    // The page's HTML may still be in the browser's HTTP cache (the page just
    // loaded it): take it from there rather than download it again.
    if (!(await cache.match(path))) await cache.add(new Request(path, { cache: 'force-cache' }));
    await keepLoadedAssets();
  } catch {
    // Offline or storage full: the page is simply not kept.
  }
}
