import { PHONE_PREFIX } from '../config/constants';

/**
 * Small validation helpers shared by the forms. The rules themselves are the
 * spec's (section 5); the shared table testdata/validation-cases.json keeps
 * the web and the server in step.
 */

/** isBlank is true for an empty or whitespace-only value. */
export function isBlank(value: string | null | undefined): boolean {
  return !value || value.trim() === '';
}

/** EMAIL_PATTERN: text, at sign, text, dot, text, with no spaces (spec section 5). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** isEmail checks the spec's e-mail shape on the trimmed value. */
export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/** FieldErrors maps a field name to the message shown under it. */
export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

/**
 * Zambian number prefixes after +260: mobile networks (Zamtel 95, 75; MTN
 * 96, 76; Airtel 97, 77; Zedmobile 57) and fixed lines (211 to 218).
 */
const ZAMBIAN_PREFIXES = ['95', '96', '97', '75', '76', '77', '57', '211', '212', '213', '214', '215', '216', '217', '218'];

/** The server's words for a phone number that is not a Zambian one (internal/validate). */
export const PHONE_FORMAT_MESSAGE = 'Please enter a valid Zambian phone number, e.g. +260 97 123 4567';

/**
 * zambianPhone returns the +260 form of a Zambian number written as
 * '+260 97 123 4567', '260971234567', '0971234567' or '971234567' (spaces,
 * dashes, dots and brackets allowed), or null when it is not one. Every
 * phone field (onboarding, contact) and the server (validate.ZambianPhone)
 * apply this one rule.
 */
export function zambianPhone(typed: string): string | null {
  let digits = typed.trim().replace(/[\s\-.()\u00a0]/g, '');
  const plus = digits.startsWith('+');
  if (plus) digits = digits.slice(1);
  if (!/^\d*$/.test(digits)) return null;
  if (digits.startsWith('00260') && digits.length === 14 && !plus) digits = digits.slice(5);
  else if (digits.startsWith('260') && digits.length === 12) digits = digits.slice(3);
  else if (plus) return null;
  else if (digits.startsWith('0') && digits.length === 10) digits = digits.slice(1);
  if (digits.length !== 9 || !ZAMBIAN_PREFIXES.some((p) => digits.startsWith(p))) return null;
  return PHONE_PREFIX + digits;
}
