import { beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadOnStaleChunk } from './staleChunks';

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
  const fire = () => {
    const e = new Event('vite:preloadError', { cancelable: true });
    target.dispatchEvent(e);
    return e.defaultPrevented;
  };
  return { win, reload, fire, location: win.location as unknown as { pathname: string } };
}

describe('reloadOnStaleChunk', () => {
  beforeEach(() => vi.useRealTimers());

  it('reloads the page once when a chunk of its version is gone, and lets a second failure show', () => {
    const w = fakeWindow();
    reloadOnStaleChunk(w.win);
    expect(w.fire()).toBe(true);
    expect(w.reload).toHaveBeenCalledTimes(1);
    // After the reload (same session), the chunk is still missing: no loop, the error goes on.
    expect(w.fire()).toBe(false);
    expect(w.reload).toHaveBeenCalledTimes(1);
  });

  it('reloads again for another address, or for the same one a minute later', () => {
    vi.useFakeTimers();
    const w = fakeWindow('/sign_up');
    reloadOnStaleChunk(w.win);
    w.fire();
    w.location.pathname = '/contact';
    expect(w.fire()).toBe(true);
    expect(w.reload).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(61_000);
    expect(w.fire()).toBe(true);
    expect(w.reload).toHaveBeenCalledTimes(3);
  });

  it('does not reload while the browser is offline: the chunk is out of reach, not stale', () => {
    const w = fakeWindow('/sign_up', false);
    reloadOnStaleChunk(w.win);
    expect(w.fire()).toBe(false);
    expect(w.reload).not.toHaveBeenCalled();
  });
});
