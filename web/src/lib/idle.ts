/**
 * afterLoadWhenIdle runs fn once the page has loaded and the main thread is
 * idle (at most timeoutMs after the load), so work the first paint does not
 * need (the service worker's registration, the page-view beacon) never
 * competes with the page's own start.
 */
export function afterLoadWhenIdle(fn: () => void, timeoutMs = 3000): void {
  const whenIdle = () => {
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(() => fn(), { timeout: timeoutMs });
    else window.setTimeout(fn, 1000);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
