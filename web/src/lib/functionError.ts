import { getSupabase } from './supabase';

/** A failed function call: the server's message and its per-field messages. */
export class FunctionCallError extends Error {
  /** Field name to the spec's message, when the server sent them. */
  readonly fields: Record<string, string>;
  /** HTTP status, when the server answered. */
  readonly status?: number;

  constructor(message: string, fields: Record<string, string> = {}, status?: number, cause?: unknown) {
    super(message, { cause });
    this.name = 'FunctionCallError';
    this.fields = fields;
    this.status = status;
  }
}

/** Shown when the request never reached the server (offline, dropped connection). */
export const NETWORK_ERROR_MESSAGE = 'Could not reach Salaula. Check your internet connection';

/** isNetworkFailure tells a request (or a code download) that never reached the server. */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError && /fetch|network|load failed|import/i.test(error.message);
}

/**
 * toFunctionCallError turns the error of `functions.invoke` into a
 * FunctionCallError whose message is the `error` field of the server's JSON
 * body (falling back to the error's own message).
 */
export async function toFunctionCallError(error: unknown): Promise<FunctionCallError> {
  // Told apart by name, not instanceof, so this module does not pull in
  // supabase-js (loaded only when a call is made).
  const name = error instanceof Error ? error.name : '';
  if (name === 'FunctionsHttpError') {
    const res = (error as Error & { context?: unknown }).context as Response | undefined;
    let message = (error as Error).message;
    let fields: Record<string, string> = {};
    try {
      const body = (await res?.clone().json()) as { error?: unknown; fields?: unknown } | undefined;
      if (body && typeof body.error === 'string' && body.error.trim() !== '') message = body.error;
      if (body && body.fields && typeof body.fields === 'object') fields = body.fields as Record<string, string>;
    } catch {
      // Not JSON: keep the client's message.
    }
    return new FunctionCallError(message, fields, res?.status, error);
  }
  if (name === 'FunctionsFetchError' || isNetworkFailure(error)) {
    return new FunctionCallError(NETWORK_ERROR_MESSAGE, {}, undefined, error);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new FunctionCallError(message, {}, undefined, error);
}

/**
 * functionErrorReason is the sentence a signed-in page shows for a failed
 * function call: the `error` (else `message`) field of the JSON answer,
 * else the client's own message (which names a request that never left).
 */
export async function functionErrorReason(error: unknown): Promise<string> {
  const fallback = error instanceof Error ? error.message : String(error);
  const context = (error as { context?: unknown } | null)?.context;
  if (context instanceof Response) {
    try {
      const body = (await context.clone().json()) as { error?: unknown; message?: unknown };
      if (typeof body.error === 'string' && body.error) return body.error;
      if (typeof body.message === 'string' && body.message) return body.message;
    } catch {
      // not JSON: keep the client's message
    }
  }
  return fallback;
}

/**
 * messageOf is the words a person sees for any error a page caught (a
 * query's or a mutation's): an Error's message (already the server's
 * sentence when it came through functionErrorReason), else the value as text.
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * invokePublicFunction calls a public function with a JSON body through the
 * app's supabase-js client (with extra headers, e.g. a form's
 * Idempotency-Key); it throws a FunctionCallError on failure.
 */
export async function invokePublicFunction(name: string, body: Record<string, unknown>, headers?: Record<string, string>): Promise<unknown> {
  let client;
  try {
    client = await getSupabase();
  } catch (err) {
    throw await toFunctionCallError(err);
  }
  const { data, error } = await client.functions.invoke(name, headers ? { body, headers } : { body });
  if (error) throw await toFunctionCallError(error);
  return data;
}
