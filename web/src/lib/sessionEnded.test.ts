import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_ENDED_EVENT, sessionEnded, sessionEndedShown, watchingSession } from './sessionEnded';

function answer(status: number, body: unknown) {
  vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
}

async function call(bearer: string, url = 'http://x/functions/v1/get-profile-me') {
  const signOut = vi.fn().mockResolvedValue(undefined);
  const ended = vi.fn();
  window.addEventListener(SESSION_ENDED_EVENT, ended);
  await watchingSession('anon', signOut)(url, { headers: { Authorization: `Bearer ${bearer}` } });
  await new Promise((r) => setTimeout(r, 0));
  window.removeEventListener(SESSION_ENDED_EVENT, ended);
  return { signedOut: signOut.mock.calls.length, told: ended.mock.calls.length };
}

describe('watchingSession', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    sessionEndedShown();
  });

  it('signs out here and tells the app when the server no longer knows the session', async () => {
    answer(401, { error: 'You must be logged in.' });
    expect(await call('user-token')).toEqual({ signedOut: 1, told: 1 });
    expect(sessionEnded()).toBe(true);
    answer(403, { code: 403, error_code: 'session_not_found', msg: 'Session from session_id claim in JWT does not exist' });
    expect(await call('user-token', 'http://x/auth/v1/user')).toEqual({ signedOut: 1, told: 1 });
  });

  it('leaves a refusal about what was sent alone, and calls without a user token', async () => {
    answer(401, { error: 'The password is not correct', fields: { password: 'The password is not correct' } });
    expect(await call('user-token')).toEqual({ signedOut: 0, told: 0 });
    answer(401, { error: 'You must be logged in.' });
    expect(await call('anon')).toEqual({ signedOut: 0, told: 0 });
    answer(400, { code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' });
    expect(await call('user-token', 'http://x/auth/v1/token?grant_type=password')).toEqual({ signedOut: 0, told: 0 });
    expect(sessionEnded()).toBe(false);
  });
});
