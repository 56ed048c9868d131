/**
 * The cookie-free page-view beacon (the server side is
 * internal/analytics): one small event per page view and route change, with
 * the path, the referrer (first view only) and the UTM parameters. Nothing
 * is stored in the browser, and nothing is sent when the browser asks not to
 * be tracked (Do Not Track or Global Privacy Control).
 */

/** Where page views go. */
export const ANALYTICS_URL = '/analytics/v1/event';

/** The UTM parameters taken from the page's address. */
const UTM = ['utm_source', 'utm_medium', 'utm_campaign'];

/** PageViewSender sends the page view of path (with the address' query string search). */
export type PageViewSender = (path: string, search?: string) => boolean;

/**
 * pageViewSender returns a sender over a browser's navigator, document and
 * fetch. It returns false when nothing was sent: Do Not Track ('1') or
 * Global Privacy Control, and the founders' console (/admin).
 */
export function pageViewSender(nav: Navigator, doc: Pick<Document, 'referrer'>, send: typeof fetch): PageViewSender {
  let first = true;
  return (path, search = '') => {
    const referrer = first ? doc.referrer : '';
    first = false;
    if (nav.doNotTrack === '1' || (nav as { globalPrivacyControl?: boolean }).globalPrivacyControl || /^\/admin(\/|$)/.test(path)) {
      return false;
    }
    const query = new URLSearchParams(search);
    const event: Record<string, string> = { name: 'pageview', path };
    if (referrer) event.referrer = referrer;
    for (const k of UTM) if (query.get(k)) event[k] = query.get(k)!;
    // A string body goes as text/plain: no CORS preflight, and at most 2 KiB (long values cut).
    const body = JSON.stringify(event, (_, v: unknown) => (typeof v === 'string' ? v.slice(0, 300) : v));
    if (!nav.sendBeacon?.(ANALYTICS_URL, body)) {
      send(ANALYTICS_URL, { method: 'POST', body, keepalive: true }).catch(() => {});
    }
    return true;
  };
}

let sender: PageViewSender | undefined;

/** sendPageView sends one page view from this browser. */
export const sendPageView: PageViewSender = (path, search) =>
  (sender ??= pageViewSender(navigator, document, fetch.bind(window)))(path, search);
