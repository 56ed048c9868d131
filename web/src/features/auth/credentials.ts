/**
 * The client-side rules of the auth screens (spec section 5): e-mail required
 * and in e-mail format, password required, no length or strength rule (the
 * authentication service has those and its message is shown).
 */
import { isBlank, isEmail, type FieldErrors } from '../../lib/validation';

/** The messages of the auth screens' field checks. */
export const CREDENTIAL_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email',
  passwordRequired: 'Password is required',
  confirmRequired: 'Please confirm your new password',
  passwordsDiffer: 'Passwords do not match',
} as const;

/** validateEmail returns the e-mail field's error, or undefined when it is fine. */
export function validateEmail(email: string): string | undefined {
  if (isBlank(email)) return CREDENTIAL_MESSAGES.emailRequired;
  if (!isEmail(email)) return CREDENTIAL_MESSAGES.emailInvalid;
  return undefined;
}

/** validateCredentials checks the sign-in / sign-up form; an empty result means it may be sent. */
export function validateCredentials(email: string, password: string): FieldErrors<'email' | 'password'> {
  const errors: FieldErrors<'email' | 'password'> = {};
  const emailError = validateEmail(email);
  if (emailError) errors.email = emailError;
  if (password === '') errors.password = CREDENTIAL_MESSAGES.passwordRequired;
  return errors;
}

/** validateNewPassword checks the reset form: both fields filled and equal. */
export function validateNewPassword(password: string, confirm: string): FieldErrors<'password' | 'confirm'> {
  const errors: FieldErrors<'password' | 'confirm'> = {};
  if (password === '') errors.password = CREDENTIAL_MESSAGES.passwordRequired;
  if (confirm === '') errors.confirm = CREDENTIAL_MESSAGES.confirmRequired;
  else if (password !== '' && password !== confirm) errors.confirm = CREDENTIAL_MESSAGES.passwordsDiffer;
  return errors;
}

/**
 * safeNextPath returns the ?next= path to go to after signing in, or null.
 * Only a path inside this site is accepted: it starts with '/' but not '//'
 * or '/\' (which browsers read as another site), and is not the sign-in
 * screen itself.
 */
export function safeNextPath(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  // A control character (a newline, a tab, NUL) is never part of a path.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(raw)) return null;
  const path = raw.split(/[?#]/)[0];
  if (path === '/sign_up' || path === '/reset_password') return null;
  return raw;
}
