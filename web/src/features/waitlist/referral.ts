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

/** What waitlist-signup answers besides success: the place in line and the personal link. */
export interface PlaceInLine {
  position?: number;
  shareUrl?: string;
}

/** placeOf reads the place and link from a waitlist-signup answer, ignoring anything malformed. */
export function placeOf(data: unknown): PlaceInLine {
  const d = (data ?? {}) as Record<string, unknown>;
  const out: PlaceInLine = {};
  if (typeof d.position === 'number' && Number.isInteger(d.position) && d.position > 0) out.position = d.position;
  if (typeof d.shareUrl === 'string' && /^https?:\/\//.test(d.shareUrl)) out.shareUrl = d.shareUrl;
  return out;
}

/** whatsAppLink is the WhatsApp share of the personal link. */
export function whatsAppLink(programName: string, shareUrl: string): string {
  const text = `I joined the Salaula ${programName} waitlist. Join through my link: ${shareUrl}`;
  return `https://wa.me/?text=${encodeURIComponent(text)}`;
}
