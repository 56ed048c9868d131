/** The referral loop's client side: the `?ref=` a page was opened with, kept for the sign-up. */

const REF_KEY = 'salaula.waitlist.ref';
const REF_PATTERN = /^[a-z2-9]{10}$/;

/**
 * currentRef returns the personal-link code the visitor arrived with: the
 * page's `?ref=` when it holds one (remembered for this tab, so it survives
 * moving between pages), else the one remembered, else ''.
 */
export function currentRef(search: string = window.location.search): string {
  const ref = new URLSearchParams(search).get('ref') ?? '';
  try {
    if (REF_PATTERN.test(ref)) {
      sessionStorage.setItem(REF_KEY, ref);
      return ref;
    }
    const kept = sessionStorage.getItem(REF_KEY) ?? '';
    return REF_PATTERN.test(kept) ? kept : '';
  } catch {
    return REF_PATTERN.test(ref) ? ref : '';
  }
}

/** A person's place in line and personal link, shown once their address is confirmed. */
export interface PlaceInLine {
  position?: number;
  shareUrl?: string;
}

/**
 * confirmedPlace reads the place and link code the confirm link's button
 * sends the browser back with (`#wl_place=N&wl_ref=CODE`, on the page the
 * sign-up was made on) and builds the personal link from the page's own
 * address, so it points where the person opened the site. Anything
 * malformed gives no place.
 */
export function confirmedPlace(location: Pick<Location, 'hash' | 'origin' | 'pathname'> = window.location): PlaceInLine {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const position = Number(params.get('wl_place'));
  const code = params.get('wl_ref') ?? '';
  if (!Number.isInteger(position) || position < 1 || !REF_PATTERN.test(code)) return {};
  return { position, shareUrl: `${location.origin}${location.pathname}?ref=${code}` };
}

/** whatsAppLink is the WhatsApp share of the personal link. */
export function whatsAppLink(programName: string, shareUrl: string): string {
  const text = `I joined the Salaula ${programName} waitlist. Join through my link: ${shareUrl}`;
  return `https://wa.me/?text=${encodeURIComponent(text)}`;
}
