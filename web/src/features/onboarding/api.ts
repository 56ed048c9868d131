/**
 * The onboarding calls, kept apart from the views: reading the session,
 * uploading pictures to the user-media bucket (spec call 8), and POSTing the
 * onboarding payloads to onboard-new-user and onboard-seller (calls 9, 10).
 */
import { getSupabase, loadConfig } from '../../lib/supabase';
import { safeFileName, shrinkImage, type ShrinkOptions } from '../../lib/images';
import { publicObjectUrl, StorageUploadError, uploadFailureMessage, uploadObject, type UploadProgress } from '../../lib/upload';
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

/** UploadError carries the storage service's reason, in words a person can act on. */
export class UploadError extends Error {
  /** The HTTP status of the refusal (0 when no answer came). */
  readonly status: number;
  /** The connection was cut or the server failed for a moment: sending again may work. */
  readonly retryable: boolean;
  constructor(message: string, status = 0, retryable = false) {
    super(message);
    this.status = status;
    this.retryable = retryable;
  }
}

let lastTimestamp = 0;

/**
 * uniqueTimestamp is the time in milliseconds, never the same twice in a
 * page, so two photos (or a photo's retry) never get the same path.
 */
export function uniqueTimestamp(): number {
  lastTimestamp = Math.max(Date.now(), lastTimestamp + 1);
  return lastTimestamp;
}

/** Options of sendImage and uploadImage. */
export interface UploadImageOptions {
  /** Follows the upload of the (shrunk) file, in bytes sent. */
  onProgress?: (progress: UploadProgress) => void;
  /** Stops the upload (it then rejects with UploadError). */
  signal?: AbortSignal;
  /** How uploadImage shrinks the picture before it is sent (lib/images.ts). */
  shrink?: ShrinkOptions;
}

/**
 * sendImage uploads a file as it is to user-media at the path pathFor gives
 * (called with the file name and the signed-in user's id), and returns its
 * public URL. The upload is the request supabase-js's storage upload sends,
 * made with XMLHttpRequest so that its progress can be shown
 * (lib/upload.ts); the access token is the current session's. It throws
 * UploadError, retryable when the connection was cut or the server failed
 * (5xx).
 */
export async function sendImage(
  file: File,
  pathFor: (fileName: string, userId: string) => string,
  options: Omit<UploadImageOptions, 'shrink'> = {},
): Promise<string> {
  const [config, session] = await Promise.all([loadConfig(), readSession()]);
  if (session.kind === 'error') throw new UploadError(session.message);
  if (session.kind === 'none') throw new UploadError(uploadFailureMessage('http', 401), 401);
  const path = pathFor(file.name, session.session.userId);
  try {
    await uploadObject({
      baseUrl: config.url,
      anonKey: config.anonKey,
      accessToken: session.session.accessToken,
      bucket: STORAGE_BUCKET,
      path,
      file,
      cacheControl: '3600',
      upsert: false,
      onProgress: options.onProgress,
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof StorageUploadError) {
      throw new UploadError(err.message, err.status, err.kind === 'network' || err.status >= 500);
    }
    throw err;
  }
  return publicObjectUrl(config.url, STORAGE_BUCKET, path);
}

/** uploadImage shrinks a picked image in the browser (lib/images.ts), then sends it with sendImage. */
export async function uploadImage(
  file: File,
  pathFor: (fileName: string, userId: string) => string,
  options: UploadImageOptions = {},
): Promise<string> {
  return sendImage(await shrinkImage(file, options.shrink), pathFor, options);
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

