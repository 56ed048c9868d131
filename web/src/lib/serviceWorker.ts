/// <reference types="vite/client" />

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
  const whenIdle = () => {
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(register, { timeout: 3000 });
    else setTimeout(register, 1000);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

/**
 * rememberPage keeps the page at path for offline use. The service worker
 * keeps every page opened by the browser itself; a page reached inside the
 * app (no page load) or opened before the worker was installed is added here,
 * once (it costs one small request for the page's HTML).
 */
export async function rememberPage(path: string): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator) || !('caches' in window)) return;
  try {
    await navigator.serviceWorker.ready;
    const cache = await caches.open(PAGES_CACHE);
    if (!(await cache.match(path))) await cache.add(path);
  } catch {
    // Offline or storage full: the page is simply not kept.
  }
}
