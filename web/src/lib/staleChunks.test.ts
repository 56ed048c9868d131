import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunkURL, reloadOnStaleChunk } from './staleChunks';

const CHUNK = 'http://127.0.0.1:8080/assets/SignInPage-abc123.js';

/** A window with its own listeners, address, session storage and reload. */
function fakeWindow(path = '/sign_up', onLine = true) {
  const target = new EventTarget();
  const store = new Map<string, string>();
  const reload = vi.fn();
  const win = {
    addEventListener: target.addEventListener.bind(target),
    location: { pathname: path, search: '', reload },
    navigator: { onLine },
    sessionStorage: {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    },
  } as unknown as Window;
  /** fire dispatches the preload error and reports whether it was cancelled. */
  const fire = () => {
    const e = new Event('vite:preloadError', { cancelable: true }) as Event & { payload?: unknown };
    e.payload = new TypeError(`Failed to fetch dynamically imported module: ${CHUNK}`);
    target.dispatchEvent(e);
    return e.defaultPrevented;
  };
  return { win, reload, fire, location: win.location as unknown as { pathname: string } };
}

/** settle lets the chunk check and its reload run. */
const settle = () => new Promise((r) => setTimeout(r, 0));

const answering = (status: number) => vi.fn(async () => new Response(null, { status }));

describe('reloadOnStaleChunk', () => {
  afterEach(() => vi.useRealTimers());

  it('reloads the page once when the server no longer has the chunk, and lets a second failure show', async () => {
    const w = fakeWindow();
    const fetchImpl = answering(404);
    reloadOnStaleChunk(w.win, fetchImpl);
    expect(w.fire()).toBe(false); // the import still fails in its caller
    await settle();
    expect(fetchImpl).toHaveBeenCalledWith(CHUNK, { method: 'HEAD', cache: 'no-store' });
    expect(w.reload).toHaveBeenCalledTimes(1);
    // After the reload (same session), the chunk is still missing: no loop, the error goes on.
    w.fire();
    await settle();
    expect(w.reload).toHaveBeenCalledTimes(1);
  });

  it('reloads again for another address, or for the same one a minute later', async () => {
    const w = fakeWindow('/sign_up');
    reloadOnStaleChunk(w.win, answering(404));
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now);
    w.fire();
    await settle();
    w.location.pathname = '/contact';
    w.fire();
    await settle();
    expect(w.reload).toHaveBeenCalledTimes(2);
    clock.mockReturnValue(now + 61_000);
    w.fire();
    await settle();
    expect(w.reload).toHaveBeenCalledTimes(3);
    clock.mockRestore();
  });

  it('does not reload when the chunk is only out of reach: no connection, or the server still has it', async () => {
    for (const fetchImpl of [vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))), answering(200), answering(503)]) {
      const w = fakeWindow();
      reloadOnStaleChunk(w.win, fetchImpl as unknown as typeof fetch);
      expect(w.fire()).toBe(false);
      await settle();
      expect(w.reload).not.toHaveBeenCalled();
    }
  });

  it('does not even check while the browser is offline', async () => {
    const w = fakeWindow('/sign_up', false);
    const fetchImpl = answering(404);
    reloadOnStaleChunk(w.win, fetchImpl);
    expect(w.fire()).toBe(false);
    await settle();
    expect(fetchImpl).not.toHaveBeenCalled();
    expect(w.reload).not.toHaveBeenCalled();
  });
});

describe('chunkURL', () => {
  it('finds the chunk in the messages browsers give', () => {
    expect(chunkURL(new TypeError(`Failed to fetch dynamically imported module: ${CHUNK}`))).toBe(CHUNK);
    expect(chunkURL(new Error(`error loading dynamically imported module: ${CHUNK}`))).toBe(CHUNK);
    expect(chunkURL(new Error('Unable to preload CSS for /assets/form-abc.css'))).toBe('/assets/form-abc.css');
    expect(chunkURL(new Error('Importing a module script failed.'))).toBeNull();
    expect(chunkURL(undefined)).toBeNull();
  });
});
