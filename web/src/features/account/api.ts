/**
 * The account page's calls (issue #10), kept apart from the view: download
 * everything held about me (account-export), delete my account
 * (account-delete), change my password, sign out here or everywhere, and
 * prove my e-mail address to see what was sent with it (account-address,
 * account-prove-email, account-prove-email-verify). Each throws an Error
 * whose message is the one to show, or SecondStepNeeded when the account has
 * two-step sign-in and this session has not passed it yet.
 */
import type { SupabaseClient, UserAttributes } from '@supabase/supabase-js';
import { FUNCTIONS } from '../../config/constants';
import { getSupabase } from '../../lib/supabase';
import { functionErrorReason } from '../auth/api';
import { SecondStepNeeded } from '../auth/mfa';

/** failed is a function's error as the Error to throw. */
async function failed(error: unknown): Promise<Error> {
  const context = (error as { context?: unknown }).context;
  if (context instanceof Response && context.status === 403) {
    try {
      const body = (await context.clone().json()) as { error_code?: unknown; error?: unknown };
      if (body.error_code === 'insufficient_aal') return new SecondStepNeeded(String(body.error));
    } catch {
      // not JSON: read as any other refusal
    }
  }
  return new Error(await functionErrorReason(error));
}

/** exportFileName is the name of the downloaded file: salaula-my-data-YYYY-MM-DD.json. */
export function exportFileName(now = new Date()): string {
  return `salaula-my-data-${now.toISOString().slice(0, 10)}.json`;
}

/** fetchMyData invokes account-export and returns the document. */
export async function fetchMyData(): Promise<Record<string, unknown>> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.functions.invoke(FUNCTIONS.accountExport, { method: 'POST' });
  if (error) throw await failed(error);
  return data as Record<string, unknown>;
}

/** downloadMyData saves the export as a JSON file in the browser's downloads. */
export async function downloadMyData(): Promise<void> {
  const data = await fetchMyData();
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = exportFileName();
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** deleteMyAccount invokes account-delete with the password. */
export async function deleteMyAccount(password: string): Promise<void> {
  const supabase = await getSupabase();
  await expectSessionEndHere(supabase);
  const { error } = await supabase.functions.invoke(FUNCTIONS.accountDelete, { method: 'POST', body: { password } });
  if (error) throw await failed(error);
}

/** expectSessionEndHere tells lib/sessionEnded that this device ends its own session now. */
async function expectSessionEndHere(supabase: SupabaseClient): Promise<void> {
  const [{ data }, { endingHere }] = await Promise.all([supabase.auth.getSession(), import('../../lib/sessionEnded')]);
  endingHere(data.session?.access_token);
}

/** forgetSession clears the session kept in this browser (the server has already ended it). */
export async function forgetSession(): Promise<void> {
  const supabase = await getSupabase();
  await supabase.auth.signOut({ scope: 'local' });
}

/** changePassword sets a new password after the server checks the current one. */
export async function changePassword(current: string, next: string): Promise<void> {
  const supabase = await getSupabase();
  const attributes = { password: next, current_password: current } as UserAttributes;
  const { error } = await supabase.auth.updateUser(attributes);
  if (error) throw error.code === 'insufficient_aal' ? new SecondStepNeeded(error.message) : new Error(error.message);
}

/** signOutOf ends this device's session (local) or every session of the account (global). */
export async function signOutOf(scope: 'local' | 'global'): Promise<void> {
  const supabase = await getSupabase();
  await expectSessionEndHere(supabase);
  const { error } = await supabase.auth.signOut({ scope });
  if (error) throw new Error(error.message);
}

/** One waitlist sign-up sent with the account's address. */
export interface AddressSignup {
  program: string;
  created_at: string;
  unsubscribed_at: string | null;
}

/** One contact message sent with the account's address. */
export interface AddressMessage {
  created_at: string;
  subject: string;
  message: string;
}

/**
 * What was sent to Salaula with the account's e-mail address, and whether
 * the account proved it holds that address (the lists are empty until then).
 */
export interface MyAddress {
  email: string;
  proven: boolean;
  proven_at: string | null;
  waitlist_signups: AddressSignup[];
  contact_messages: AddressMessage[];
}

/** fetchMyAddress invokes account-address. */
export async function fetchMyAddress(): Promise<MyAddress> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.functions.invoke(FUNCTIONS.accountAddress, { method: 'POST' });
  if (error) throw await failed(error);
  return data as MyAddress;
}

/** sendProofLink asks for the link that proves the address; it returns the message to show. */
export async function sendProofLink(): Promise<string> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.functions.invoke(FUNCTIONS.accountProveEmail, { method: 'POST' });
  if (error) throw await failed(error);
  return (data as { message: string }).message;
}

/** proveMyAddress sends the e-mailed link's token back; the address is then proven. */
export async function proveMyAddress(tokenHash: string): Promise<MyAddress> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.functions.invoke(FUNCTIONS.accountProveEmailVerify, { method: 'POST', body: { token_hash: tokenHash } });
  if (error) throw await failed(error);
  return data as MyAddress;
}
