/**
 * A page kept open across a deploy still runs the old version; its code
 * split chunks (hashed names) may be gone from the server when it first
 * needs one (a page never opened before, such as sign-in). Rather than
 * mixing versions or showing an error, the page is loaded again, whole, in
 * the new version. Once per address and a minute, so a chunk that is really
 * missing shows the error instead of reloading forever; never while the
 * browser is offline (the chunk is not stale then, just out of reach).
 */

const KEY = 'salaula:stale-chunk-reload';
const ONCE_PER_MS = 60_000;

/**
 * reloadOnStaleChunk listens for Vite's vite:preloadError (a dynamic import
 * of the app's own code that failed) and reloads the current address.
 */
export function reloadOnStaleChunk(win: Window = window): void {
  win.addEventListener('vite:preloadError', (event) => {
    // Offline, the chunk is not stale, the connection is gone: a reload would only show the
    // browser's offline page and lose what was typed. The caller shows the error instead.
    if (win.navigator?.onLine === false) return;
    const here = win.location.pathname + win.location.search;
    let last: { at: number; path: string } | null = null;
    try {
      last = JSON.parse(win.sessionStorage.getItem(KEY) ?? 'null') as { at: number; path: string } | null;
    } catch {
      last = null;
    }
    if (last && last.path === here && Date.now() - last.at < ONCE_PER_MS) return; // the error shows
    try {
      win.sessionStorage.setItem(KEY, JSON.stringify({ at: Date.now(), path: here }));
    } catch {
      // No storage: the once-per-address guard cannot hold, so do not reload at all.
      return;
    }
    event.preventDefault();
    win.location.reload();
  });
}
