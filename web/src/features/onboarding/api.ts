/**
 * The onboarding calls, kept apart from the views: reading the session,
 * uploading pictures to the user-media bucket (spec call 8), and POSTing the
 * onboarding payloads to onboard-new-user and onboard-seller (calls 9, 10).
 */
import { getSupabase, loadConfig } from '../../lib/supabase';
import { safeFileName, shrinkImage } from '../../lib/images';
import { FUNCTIONS, STORAGE_BUCKET } from '../../config/constants';

/** The signed-in user's id and access token. */
export interface SessionInfo {
  userId: string;
  accessToken: string;
}

/** What reading the session gave: a session, none, or an error of the auth client. */
export type SessionResult =
  | { kind: 'ok'; session: SessionInfo }
  | { kind: 'none' }
  | { kind: 'error'; message: string };

/** readSession asks supabase-js for the current session (spec call 3). */
export async function readSession(): Promise<SessionResult> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.getSession();
  if (error) return { kind: 'error', message: error.message };
  const session = data.session;
  if (!session?.user?.id || !session.access_token) return { kind: 'none' };
  return { kind: 'ok', session: { userId: session.user.id, accessToken: session.access_token } };
}

/**
 * photoPath is where a profile photo goes: {userId}/{timestamp}-{filename};
 * logoPath is a seller's logo: {userId}/logos/{timestamp}-{filename}.
 */
export function photoPath(userId: string, fileName: string, timestamp: number): string {
  return `${userId}/${timestamp}-${safeFileName(fileName)}`;
}

/** logoPath: see photoPath. */
export function logoPath(userId: string, fileName: string, timestamp: number): string {
  return `${userId}/logos/${timestamp}-${safeFileName(fileName)}`;
}

/** UploadError carries the storage service's reason. */
export class UploadError extends Error {}

/**
 * uploadImage shrinks a picked image in the browser, uploads it to
 * user-media at the path pathFor gives (called with the final file name),
 * and returns its public URL.
 */
export async function uploadImage(file: File, pathFor: (fileName: string) => string): Promise<string> {
  const supabase = await getSupabase();
  const small = await shrinkImage(file);
  const path = pathFor(small.name);
  const bucket = supabase.storage.from(STORAGE_BUCKET);
  const { error } = await bucket.upload(path, small, {
    contentType: small.type || 'application/octet-stream',
    cacheControl: '3600',
    upsert: false,
  });
  if (error) throw new UploadError(error.message);
  return bucket.getPublicUrl(path).data.publicUrl;
}

/** The answer of an onboarding function that was not OK. */
export interface FunctionFailure {
  status: number;
  /** The body's error field, when the body had one. */
  error?: string;
  /** Per-field messages, when the server sent them. */
  fields?: Record<string, string>;
}

/** FunctionError is thrown for a non-OK answer of an onboarding function. */
export class FunctionError extends Error {
  readonly failure: FunctionFailure;
  constructor(failure: FunctionFailure) {
    super(failure.error ?? `status ${failure.status}`);
    this.failure = failure;
  }
}

/**
 * postFunction POSTs a JSON body to /functions/v1/{name} with the session's
 * bearer token and the anon key (spec calls 9 and 10). It resolves on a 2xx
 * answer and throws FunctionError with the body's error and fields otherwise.
 */
export async function postFunction(
  name: (typeof FUNCTIONS)['onboardNewUser' | 'onboardSeller'],
  body: unknown,
  accessToken: string,
): Promise<void> {
  const config = await loadConfig();
  const res = await fetch(`${config.url}/functions/v1/${name}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${accessToken}`,
      apikey: config.anonKey,
    },
    body: JSON.stringify(body),
  });
  if (res.ok) return;
  const failure: FunctionFailure = { status: res.status };
  try {
    const data: unknown = await res.json();
    if (data && typeof data === 'object') {
      const { error, fields } = data as { error?: unknown; fields?: unknown };
      if (typeof error === 'string' && error !== '') failure.error = error;
      if (fields && typeof fields === 'object') failure.fields = fields as Record<string, string>;
    }
  } catch {
    // Not JSON: only the status is known.
  }
  throw new FunctionError(failure);
}

