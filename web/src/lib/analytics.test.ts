import { describe, expect, it, vi } from 'vitest';
import { ANALYTICS_URL, pageViewSender } from './analytics';

/** A browser's navigator with sendBeacon (answering accepted) and the privacy flags. */
function browser(opts: { dnt?: string; gpc?: boolean; beacon?: boolean | 'none'; referrer?: string } = {}) {
  const beacon = vi.fn((_url: string, _body: string) => opts.beacon !== false);
  const nav = {
    doNotTrack: opts.dnt ?? null,
    globalPrivacyControl: opts.gpc,
    sendBeacon: opts.beacon === 'none' ? undefined : beacon,
  } as unknown as Navigator;
  const fetchFn = vi.fn(() => Promise.resolve(new Response(null, { status: 202 })));
  const send = pageViewSender(nav, { referrer: opts.referrer ?? '' }, fetchFn as unknown as typeof fetch);
  const sent = () => [...beacon.mock.calls.map((c) => c[1]), ...fetchFn.mock.calls.map((c) => (c as unknown[])[1] as RequestInit).map((i) => i.body as string)].map((b) => JSON.parse(b));
  return { send, beacon, fetchFn, sent };
}

describe('page-view beacon', () => {
  it('sends the path, the first view\'s referrer and the UTM parameters with sendBeacon', () => {
    const b = browser({ referrer: 'https://www.facebook.com/groups/lusaka' });
    expect(b.send('/', '?utm_source=radio&utm_medium=fm&utm_campaign=launch&code=secret')).toBe(true);
    expect(b.send('/about')).toBe(true);
    expect(b.beacon).toHaveBeenCalledTimes(2);
    expect(b.beacon.mock.calls[0][0]).toBe(ANALYTICS_URL);
    expect(b.fetchFn).not.toHaveBeenCalled();
    // Only the UTM parameters leave the query string; the referrer goes with the first view only.
    expect(b.sent()).toEqual([
      { name: 'pageview', path: '/', referrer: 'https://www.facebook.com/groups/lusaka', utm_source: 'radio', utm_medium: 'fm', utm_campaign: 'launch' },
      { name: 'pageview', path: '/about' },
    ]);
  });

  it('falls back to fetch with keepalive when sendBeacon is missing or refuses', () => {
    for (const beacon of ['none', false] as const) {
      const b = browser({ beacon });
      b.send('/mens');
      expect(b.fetchFn).toHaveBeenCalledTimes(1);
      const [url, init] = b.fetchFn.mock.calls[0] as unknown as [string, RequestInit];
      expect(url).toBe(ANALYTICS_URL);
      expect(init).toMatchObject({ method: 'POST', keepalive: true });
      expect(JSON.parse(init.body as string)).toEqual({ name: 'pageview', path: '/mens' });
    }
  });

  it('sends nothing under Do Not Track or Global Privacy Control, nor from the console', () => {
    for (const b of [browser({ dnt: '1' }), browser({ gpc: true })]) {
      expect(b.send('/', '?utm_source=radio')).toBe(false);
      expect(b.beacon).not.toHaveBeenCalled();
      expect(b.fetchFn).not.toHaveBeenCalled();
    }
    const b = browser({ dnt: '0' });
    expect(b.send('/admin/waitlist')).toBe(false);
    expect(b.send('/administrator')).toBe(true);
    expect(b.sent()).toEqual([{ name: 'pageview', path: '/administrator' }]);
  });

  it('keeps every event under the server\'s 2 KiB', () => {
    const long = 'x'.repeat(5000);
    const b = browser({ referrer: 'https://example.com/' + long });
    b.send('/' + long, `?utm_source=${long}&utm_medium=${long}&utm_campaign=${long}`);
    const body = b.beacon.mock.calls[0][1];
    expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(2048);
  });
});
