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
