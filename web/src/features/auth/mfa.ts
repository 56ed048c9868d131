/**
 * Two-step sign-in (TOTP authenticator apps) through supabase-js `auth.mfa`,
 * kept apart from the screens. Each call returns what the screen needs or
 * throws an Error whose message is the one to show.
 */
import { getSupabase } from '../../lib/supabase';

/**
 * SecondStepNeeded is the server's insufficient_aal for an action: the
 * account has two-step sign-in on and this session has not passed it yet
 * (useSecondStep asks for the code, then repeats the action).
 */
export class SecondStepNeeded extends Error {}

/** A second factor as the screens need it. */
export interface TotpFactor {
  id: string;
  friendlyName: string;
}

/** What a new enrolment gives the person: a QR code to scan and the secret to type instead. */
export interface Enrolment {
  factorId: string;
  qrCode: string; // data: URI of an SVG image
  secret: string;
}

/** needsSecondStep is true when the account has two-step sign-in on and this session has not passed it yet. */
export async function needsSecondStep(): Promise<boolean> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
  if (error) throw new Error(error.message);
  return data.currentLevel === 'aal1' && data.nextLevel === 'aal2';
}

/** verifiedFactor returns the account's verified authenticator app, or null when two-step sign-in is off. */
export async function verifiedFactor(): Promise<TotpFactor | null> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) throw new Error(error.message);
  const f = data.totp[0];
  return f ? { id: f.id, friendlyName: f.friendly_name ?? '' } : null;
}

/** verifyCode checks a 6-digit code of the factor and raises the session to two-step (aal2). */
export async function verifyCode(factorId: string, code: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code: code.trim() });
  if (error) throw new Error(codeMessage(error.code, error.message));
}

/** verifySecondStep checks a code of the account's authenticator app at sign-in. */
export async function verifySecondStep(code: string): Promise<void> {
  const factor = await verifiedFactor();
  if (!factor) throw new Error('Two-step sign-in is not on for this account.');
  await verifyCode(factor.id, code);
}

/** startEnrolment adds an unverified authenticator app and returns its QR code and secret. */
export async function startEnrolment(): Promise<Enrolment> {
  const supabase = await getSupabase();
  // Leftovers of an enrolment never finished would otherwise pile up.
  const { data: listed } = await supabase.auth.mfa.listFactors();
  for (const f of listed?.all ?? []) {
    if (f.status !== 'verified') await supabase.auth.mfa.unenroll({ factorId: f.id });
  }
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Authenticator app' });
  if (error) throw new Error(error.message);
  return { factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret };
}

/** turnOff removes the authenticator app; the session must have passed two-step sign-in first. */
export async function turnOff(factorId: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.mfa.unenroll({ factorId });
  if (error) throw new Error(error.message);
}

/** isSixDigits is true for a code as authenticator apps show it (spaces allowed). */
export function isSixDigits(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s/g, ''));
}

function codeMessage(code: string | undefined, fallback: string): string {
  switch (code) {
    case 'mfa_verification_failed':
      return 'That code is not right. Check the time on your phone and type the code your app shows now.';
    case 'mfa_verification_rejected':
      return 'That code was already used. Wait for the next code in your app.';
    case 'over_request_rate_limit':
      // The server says how long to wait (after wrong codes in a row, the wait grows).
      return fallback || 'Too many codes tried. Please wait a few minutes and try again.';
    default:
      return fallback;
  }
}
