/**
 * A page kept open across a deploy still runs the old version; its code
 * split chunks (hashed names) may be gone from the server when it first
 * needs one (a page never opened before, such as sign-in). Rather than
 * mixing versions, the page is loaded again, whole, in the new version.
 *
 * A chunk counts as gone only when the server answers 404 for it. A chunk
 * that could not be fetched (no connection, a connection coming back, a
 * service worker still offline) is not stale, only out of reach: the
 * import fails as usual, so the caller keeps what was typed, says so and
 * tries again, and nothing reloads. Once per address and a minute, so a
 * chunk that is really missing shows the error instead of reloading forever.
 */

const KEY = 'salaula:stale-chunk-reload';
const ONCE_PER_MS = 60_000;

/** chunkURL finds the address of the chunk a preload error is about (Chrome, Firefox and Safari name it). */
export function chunkURL(payload: unknown): string | null {
  const text = payload instanceof Error ? payload.message : String(payload ?? '');
  const m = /(https?:\/\/[^\s'"]+|\/assets\/[^\s'"]+)/.exec(text);
  return m ? m[1].replace(/[.,;:)]+$/, '') : null;
}

/**
 * reloadOnStaleChunk listens for Vite's vite:preloadError (a dynamic import
 * of the app's own code that failed) and, when the server no longer has that
 * chunk, reloads the current address. The event is never cancelled, so the
 * failed import rejects in its caller either way.
 */
export function reloadOnStaleChunk(win: Window = window, fetchImpl: typeof fetch = (...a) => win.fetch(...a)): void {
  win.addEventListener('vite:preloadError', (event) => {
    if (win.navigator?.onLine === false) return;
    const here = win.location.pathname + win.location.search;
    let last: { at: number; path: string } | null;
    try {
      last = JSON.parse(win.sessionStorage.getItem(KEY) ?? 'null') as { at: number; path: string } | null;
    } catch {
      last = null;
    }
    if (last && last.path === here && Date.now() - last.at < ONCE_PER_MS) return; // the error shows
    const url = chunkURL((event as Event & { payload?: unknown }).payload);
    const gone: Promise<boolean> = url
      ? fetchImpl(url, { method: 'HEAD', cache: 'no-store' }).then(
          (res) => res.status === 404,
          () => false, // out of reach, not stale
        )
      : Promise.resolve(true); // no address to check: as before, the version is taken to be gone
    void gone.then((isGone) => {
      if (!isGone) return;
      try {
        win.sessionStorage.setItem(KEY, JSON.stringify({ at: Date.now(), path: here }));
      } catch {
        // No storage: the once-per-address guard cannot hold, so do not reload at all.
        return;
      }
      win.location.reload();
    });
  });
}
