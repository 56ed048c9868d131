/**
 * The auth feature's calls to the backend (spec section 7, calls 3 to 7, and
 * the password reset), kept apart from the screens. Each call either returns
 * what the screen needs or throws an Error whose message is the one to show
 * (the authentication service's own message where it gives one).
 */
import type { Session, User } from '@supabase/supabase-js';
import { AUTH_ROUTES, FUNCTIONS } from '../../config/constants';
import { NETWORK_ERROR_MESSAGE, functionErrorReason, isNetworkFailure } from '../../lib/functionError';
import { getSupabase as loadClient } from '../../lib/supabase';
import { SecondStepNeeded } from './mfa';

export { functionErrorReason };

/**
 * getSupabase is the app's client for the auth calls. supabase-js may still
 * have to be downloaded (the sign-in page does not load it for a visitor
 * without a session): when that download or the app's settings cannot be
 * fetched, the error to show is the connection's, not the browser's.
 */
async function getSupabase() {
  try {
    return await loadClient();
  } catch (err) {
    throw isNetworkFailure(err) ? new Error(NETWORK_ERROR_MESSAGE, { cause: err }) : err;
  }
}

/** getCurrentSession returns the stored session, or null when there is none (call 3). */
export async function getCurrentSession(): Promise<Session | null> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.getSession();
  if (error) throw new Error(error.message);
  return data.session;
}

/** The part of the profile the auth screens read. */
export interface MyProfile {
  /** 'buyer', 'seller' or 'buyer_and_seller'; null until onboarding. */
  role: string | null;
}

/**
 * fetchMyProfile invokes get-profile-me (call 4). It throws an Error whose
 * message is the function's own error text when it gives one.
 */
export async function fetchMyProfile(): Promise<MyProfile> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.functions.invoke(FUNCTIONS.getProfileMe, { method: 'POST' });
  if (error) throw new Error(await functionErrorReason(error));
  const body = (data ?? {}) as { role?: unknown; profile?: { role?: unknown } };
  const role = body.role ?? body.profile?.role ?? null;
  return { role: typeof role === 'string' && role !== '' ? role : null };
}

/** signOut ends the session on the server and in this browser (call 5). */
export async function signOut(): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.signOut();
  if (error) console.error('Sign out failed', error);
}

/** What sign-up answered: the new user, and a session unless e-mail confirmation is on. */
export interface SignUpResult {
  user: User | null;
  session: Session | null;
}

/** signUp creates an account (call 6). */
export async function signUp(email: string, password: string): Promise<SignUpResult> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.signUp({ email: email.trim(), password });
  if (error) throw new Error(error.message);
  return { user: data.user, session: data.session };
}

/**
 * resendConfirmation asks the service to e-mail the account's confirmation
 * link again (POST /auth/v1/resend). Asked too soon, it throws the service's
 * words saying when the next can be asked for, as requestPasswordReset does.
 */
export async function resendConfirmation(email: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.resend({ type: 'signup', email: email.trim(), options: { emailRedirectTo: `${window.location.origin}/sign_up` } });
  if (error) throw new Error(error.message);
}

/**
 * EmailNotConfirmed is sign-in refused because the account's address is not
 * confirmed yet (email_not_confirmed): its message is the service's words,
 * and the screen offers to send the confirmation e-mail again.
 */
export class EmailNotConfirmed extends Error {}

/** signIn signs in with e-mail and password (call 7) and returns the user; EmailNotConfirmed for an unconfirmed account. */
export async function signIn(email: string, password: string): Promise<User | null> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.signInWithPassword({ email: email.trim(), password });
  if (error) throw error.code === 'email_not_confirmed' ? new EmailNotConfirmed(error.message) : new Error(error.message);
  return data.user;
}

/**
 * requestPasswordReset asks the service to e-mail a reset link that opens
 * /reset_password on this site. The service answers the same whether or not
 * the account exists.
 */
export async function requestPasswordReset(email: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.resetPasswordForEmail(email.trim(), {
    redirectTo: `${window.location.origin}${AUTH_ROUTES.resetPassword}`,
  });
  if (error) throw new Error(error.message);
}

/** LinkRefused is an e-mailed link the service refused: used, expired or unknown. */
export class LinkRefused extends Error {}

/**
 * checkRecoveryLink checks the reset link the page was opened with, before
 * anything is typed: it exchanges the link's token_hash for a session (the
 * service spends a reset link only when the new password is set), or, for a
 * link that came back through the service's verify page, reads the session
 * supabase-js took from the address. It throws LinkRefused when the service
 * refused the link or no session came of it, and an Error with the
 * connection's words when the service could not be reached.
 */
export async function checkRecoveryLink(tokenHash: string | null): Promise<void> {
  const supabase = await getSupabase();
  if (tokenHash) {
    const { error } = await supabase.auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' });
    if (!error) return;
    if (error.name === 'AuthRetryableFetchError') throw new Error(NETWORK_ERROR_MESSAGE, { cause: error });
    throw new LinkRefused(error.message);
  }
  const { data, error } = await supabase.auth.getSession();
  if (error) throw new Error(error.message);
  if (!data.session) throw new LinkRefused('No session came with the link');
}

/** updatePassword sets a new password for the signed-in user. */
export async function updatePassword(password: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error.code === 'insufficient_aal' ? new SecondStepNeeded(error.message) : new Error(error.message);
}
