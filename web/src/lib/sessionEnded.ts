/**
 * Noticing that the signed-in person's session ended elsewhere (a password
 * change on another phone, the console's "Sign out everywhere"): the first
 * call the server refuses for it signs out on this device, and the app
 * leads to the sign-in page, which says why once and then goes back to
 * where the person was. Loaded with supabase-js, never on a first visit.
 */
/** Event on window once a call found the session ended elsewhere (after the local sign-out). */
export const SESSION_ENDED_EVENT = 'salaula-session-ended'; // app/AppLayout.tsx listens for it by name
const SESSION_ENDED_KEY = 'salaula-session-ended';

/** What the sign-in page says once after the session ended elsewhere. */
export const SESSION_ENDED_NOTICE =
  'You were signed out: your password was changed or your account was signed out on every device. Sign in again to go on.';

/** sessionEnded reports whether a call found the session ended and the sign-in page has not said so yet. */
export function sessionEnded(): boolean {
  try {
    return sessionStorage.getItem(SESSION_ENDED_KEY) === '1';
  } catch {
    return false;
  }
}

/** sessionEndedShown forgets the flag: the sign-in page said it. */
export function sessionEndedShown(): void {
  try {
    sessionStorage.removeItem(SESSION_ENDED_KEY);
  } catch {
    // Nothing kept.
  }
}

let ending = false;

/** Access tokens whose session this device ended itself (account deleted, signed out). */
const endedHere = new Set<string>();

/**
 * endingHere tells the watcher that this device is about to end the session
 * of accessToken itself (deleting the account, signing out everywhere), so
 * the refusals of calls still under way with it are expected, not news
 * from elsewhere.
 */
export function endingHere(accessToken: string | undefined): void {
  if (accessToken) endedHere.add(accessToken);
}

/**
 * endSession signs out on this device when the server no longer knows the
 * session (a password change elsewhere, "sign out everywhere"), then tells
 * the app (SESSION_ENDED_EVENT), which leads to the sign-in page.
 */
function endSession(signOutHere: () => Promise<unknown>) {
  if (ending) return;
  ending = true;
  try {
    sessionStorage.setItem(SESSION_ENDED_KEY, '1');
  } catch {
    // The page still leads to sign-in; it just cannot say why after a reload.
  }
  void signOutHere()
    .catch(() => {})
    .finally(() => {
      ending = false;
      window.dispatchEvent(new Event(SESSION_ENDED_EVENT));
    });
}

/**
 * watchingSession is supabase-js's fetch, watching for an answer that says
 * the signed-in person's session is gone: a 401 to a call made with a
 * user's token that says so (not logged in, session or token refused), or
 * session_not_found (sign-in and sign-out calls aside).
 * signOutHere forgets the session on this device only.
 */
export function watchingSession(anonKey: string, signOutHere: () => Promise<unknown>): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    if (res.status !== 401 && res.status !== 403) return res;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const auth = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).get('Authorization') ?? '';
    if (!/^Bearer /i.test(auth) || auth.slice(7) === anonKey || endedHere.has(auth.slice(7)) || /\/auth\/v1\/(logout|token|verify|otp|signup|recover)/.test(url)) return res;
    try {
      const body = (await res.clone().json()) as { error_code?: string; code?: string; error?: string; msg?: string; message?: string };
      const code = body.error_code ?? body.code ?? '';
      const said = [body.error, body.msg, body.message].filter((m) => typeof m === 'string').join(' ');
      // A refusal about the session itself, not about what was sent (a wrong password is a 401 too).
      if (code === 'session_not_found' || (res.status === 401 && (/^(bad_jwt|no_authorization)$/.test(code) || /logged in|session|jwt/i.test(said)))) {
        endSession(signOutHere);
      }
    } catch {
      // Not the service's answer.
    }
    return res;
  };
}

