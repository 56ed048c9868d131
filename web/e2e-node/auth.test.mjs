// The real supabase-js (from npm) against a running `salaula serve`: sign-up,
// sign-in, refresh-token rotation and reuse detection, password change,
// sign-out, auth events and the password-reset flow.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createClient, isAuthApiError, isAuthWeakPasswordError } from '@supabase/supabase-js';
import { configOf, startServer } from './server.mjs';

let server;
let cfg;
before(async () => {
  // No grace interval: a rotated refresh token is refused at once.
  server = await startServer({ SALAULA_REFRESH_REUSE_INTERVAL: '0s' });
  cfg = await configOf(server.url);
});
after(async () => {
  await server?.stop();
});

let counter = 0;
/** A fresh e-mail address for each test. */
const freshEmail = () => `mwila.${Date.now()}.${counter++}@example.com`;
const PASSWORD = 'chitenge-lusaka-42';

/** A client that keeps its session in memory and never refreshes on its own. */
function client() {
  return createClient(cfg.url, cfg.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
}

/** Records the auth events a client emits. */
function recordEvents(supabase) {
  const events = [];
  supabase.auth.onAuthStateChange((event) => events.push(event));
  return events;
}

/** Calls GET /auth/v1/user and get-profile-me with an access token; returns both statuses. */
async function statusesWith(accessToken) {
  const headers = { apikey: cfg.anonKey, Authorization: `Bearer ${accessToken}` };
  const user = await fetch(`${cfg.url}/auth/v1/user`, { headers });
  const profile = await fetch(`${cfg.url}/functions/v1/get-profile-me`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: '{}',
  });
  return { user: user.status, profile: profile.status };
}

test('sign-up answers a session and user, and emits SIGNED_IN', async () => {
  const supabase = client();
  const events = recordEvents(supabase);
  const email = freshEmail();
  const { data, error } = await supabase.auth.signUp({ email: `  ${email.toUpperCase()} `, password: PASSWORD });
  assert.equal(error, null);
  assert.ok(data.session?.access_token, 'a session comes back');
  assert.equal(data.session.token_type, 'bearer');
  assert.equal(data.user.email, email, 'e-mail trimmed and lower-cased');
  assert.equal(data.user.aud, 'authenticated');
  assert.equal(data.user.role, 'authenticated');
  assert.deepEqual(data.user.app_metadata, { provider: 'email', providers: ['email'] });
  assert.equal(data.user.identities.length, 1);
  assert.equal(data.user.identities[0].provider, 'email');
  assert.ok(data.user.email_confirmed_at);
  assert.ok(events.includes('SIGNED_IN'), `events: ${events}`);
  const { data: got, error: getError } = await supabase.auth.getUser();
  assert.equal(getError, null);
  assert.equal(got.user.id, data.user.id);
});

test('a second sign-up with the same e-mail is refused with user_already_exists', async () => {
  const email = freshEmail();
  await client().auth.signUp({ email, password: PASSWORD });
  const { data, error } = await client().auth.signUp({ email: email.toUpperCase(), password: 'another-good-pass-9' });
  assert.ok(isAuthApiError(error), `error = ${error}`);
  assert.equal(error.code, 'user_already_exists');
  assert.equal(error.status, 422);
  assert.equal(error.message, 'User already registered');
  assert.equal(data.session, null);
});

test('weak passwords give AuthWeakPasswordError with reasons', async () => {
  const common = await client().auth.signUp({ email: freshEmail(), password: 'password' });
  assert.ok(isAuthWeakPasswordError(common.error), `error = ${common.error}`);
  assert.equal(common.error.code, 'weak_password');
  assert.equal(common.error.status, 422);
  assert.deepEqual(common.error.reasons, ['pwned']);

  const short = await client().auth.signUp({ email: freshEmail(), password: 'Zq7!x' });
  assert.ok(isAuthWeakPasswordError(short.error));
  assert.deepEqual(short.error.reasons, ['length']);
  assert.equal(short.error.message, 'Password should be at least 8 characters.');
});

test('sign-in with the right password answers a session; a wrong one invalid_credentials', async () => {
  const email = freshEmail();
  await client().auth.signUp({ email, password: PASSWORD });
  const supabase = client();
  const events = recordEvents(supabase);
  const { data, error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
  assert.equal(error, null);
  assert.equal(data.user.email, email);
  assert.ok(data.session.refresh_token);
  assert.ok(events.includes('SIGNED_IN'));

  const wrong = await client().auth.signInWithPassword({ email, password: 'not-the-password-1' });
  assert.ok(isAuthApiError(wrong.error));
  assert.equal(wrong.error.code, 'invalid_credentials');
  assert.equal(wrong.error.status, 400);
  assert.equal(wrong.error.message, 'Invalid login credentials');

  const unknown = await client().auth.signInWithPassword({ email: freshEmail(), password: PASSWORD });
  assert.equal(unknown.error.code, 'invalid_credentials', 'an unknown e-mail gets the same answer');
  assert.equal(unknown.error.message, wrong.error.message);
});

test('refresh rotates the refresh token and emits TOKEN_REFRESHED', async () => {
  const email = freshEmail();
  const supabase = client();
  const events = recordEvents(supabase);
  const { data: first } = await supabase.auth.signUp({ email, password: PASSWORD });
  const { data, error } = await supabase.auth.refreshSession();
  assert.equal(error, null);
  assert.notEqual(data.session.refresh_token, first.session.refresh_token, 'a new refresh token');
  assert.ok(events.includes('TOKEN_REFRESHED'), `events: ${events}`);
  const { data: user } = await supabase.auth.getUser();
  assert.equal(user.user.email, email, 'the new access token works');

  // The new token keeps working.
  const again = await supabase.auth.refreshSession();
  assert.equal(again.error, null);
  assert.notEqual(again.data.session.refresh_token, data.session.refresh_token);
});

test('reusing a rotated refresh token revokes the whole session', async () => {
  const supabase = client();
  const { data: first } = await supabase.auth.signUp({ email: freshEmail(), password: PASSWORD });
  const { data: rotated } = await supabase.auth.refreshSession();
  const current = rotated.session;

  // Someone replays the first (already rotated) refresh token.
  const thief = client();
  const replay = await thief.auth.refreshSession({ refresh_token: first.session.refresh_token });
  assert.ok(isAuthApiError(replay.error), `error = ${replay.error}`);
  assert.equal(replay.error.code, 'refresh_token_already_used');
  assert.equal(replay.error.status, 400);

  // The session is gone: its current refresh token and access token stop working.
  const owner = client();
  const refreshed = await owner.auth.refreshSession({ refresh_token: current.refresh_token });
  assert.equal(refreshed.error?.code, 'refresh_token_not_found');
  const statuses = await statusesWith(current.access_token);
  assert.equal(statuses.user, 403);
  assert.equal(statuses.profile, 401);
});

test('updateUser changes the password (USER_UPDATED); the new one signs in, the old one no longer', async () => {
  const email = freshEmail();
  const supabase = client();
  const events = recordEvents(supabase);
  await supabase.auth.signUp({ email, password: PASSWORD });
  const { data, error } = await supabase.auth.updateUser({ password: 'new-mutengo-pass-7' });
  assert.equal(error, null);
  assert.equal(data.user.email, email);
  assert.ok(events.includes('USER_UPDATED'), `events: ${events}`);

  const same = await supabase.auth.updateUser({ password: 'new-mutengo-pass-7' });
  assert.equal(same.error?.code, 'same_password');
  const weak = await supabase.auth.updateUser({ password: 'qwerty123' });
  assert.ok(isAuthWeakPasswordError(weak.error));

  assert.equal((await client().auth.signInWithPassword({ email, password: 'new-mutengo-pass-7' })).error, null);
  assert.equal((await client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code, 'invalid_credentials');
});

test('signOut emits SIGNED_OUT and the old access token stops working everywhere', async () => {
  const supabase = client();
  const events = recordEvents(supabase);
  const { data } = await supabase.auth.signUp({ email: freshEmail(), password: PASSWORD });
  const token = data.session.access_token;
  assert.deepEqual(await statusesWith(token), { user: 200, profile: 200 });

  const { error } = await supabase.auth.signOut();
  assert.equal(error, null);
  assert.ok(events.includes('SIGNED_OUT'), `events: ${events}`);
  assert.equal((await supabase.auth.getSession()).data.session, null);

  const statuses = await statusesWith(token);
  assert.equal(statuses.user, 403);
  assert.equal(statuses.profile, 401);
  const refreshed = await client().auth.refreshSession({ refresh_token: data.session.refresh_token });
  assert.equal(refreshed.error?.code, 'refresh_token_not_found');
});

test('signOut with scope others keeps this device and ends the others', async () => {
  const email = freshEmail();
  const phone = client();
  await phone.auth.signUp({ email, password: PASSWORD });
  const laptop = client();
  const { data: other } = await laptop.auth.signInWithPassword({ email, password: PASSWORD });
  assert.equal((await phone.auth.signOut({ scope: 'others' })).error, null);
  assert.equal((await phone.auth.getUser()).error, null, 'this device stays signed in');
  assert.equal((await statusesWith(other.session.access_token)).user, 403);
});

/** Finds the newest password-reset link the server logged for an address. */
function resetLinkFor(email) {
  const lines = server.logs.join('').split('\n').filter((l) => l.includes(email) && l.includes('reset_password'));
  assert.ok(lines.length > 0, `no reset e-mail logged for ${email}`);
  const match = lines.at(-1).match(/\/reset_password\?token_hash=([A-Za-z0-9_-]+)&type=recovery/);
  assert.ok(match, `no link in: ${lines.at(-1)}`);
  return { tokenHash: match[1], url: match[0] };
}

test('password reset: e-mailed link, verifyOtp (PASSWORD_RECOVERY), updateUser, sign-in with the new password', async () => {
  const email = freshEmail();
  await client().auth.signUp({ email, password: PASSWORD });

  const visitor = client();
  const sent = await visitor.auth.resetPasswordForEmail(email);
  assert.equal(sent.error, null);
  const nobody = await visitor.auth.resetPasswordForEmail(freshEmail());
  assert.equal(nobody.error, null, 'an unknown address gets the same answer');

  // Wait for the log line to arrive from the child process.
  let link;
  for (let i = 0; i < 50 && !link; i++) {
    try {
      link = resetLinkFor(email);
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  link ??= resetLinkFor(email);
  assert.ok(link.url.startsWith('/reset_password?token_hash='));

  // Asking again within the minute says when the next link can be asked for.
  const again = await visitor.auth.resetPasswordForEmail(email);
  assert.equal(again.error?.status, 429);
  assert.equal(again.error?.code, 'over_email_send_rate_limit');
  assert.match(again.error?.message ?? '', /^For security purposes, you can only request this after \d+ seconds\.$/);

  // Opening the link (verifyOtp) and leaving does not spend it.
  const opened = await client().auth.verifyOtp({ token_hash: link.tokenHash, type: 'recovery' });
  assert.equal(opened.error, null);

  const events = recordEvents(visitor);
  const { data, error } = await visitor.auth.verifyOtp({ token_hash: link.tokenHash, type: 'recovery' });
  assert.equal(error, null);
  assert.equal(data.user.email, email);
  assert.ok(data.session.access_token);
  assert.ok(events.includes('PASSWORD_RECOVERY'), `events: ${events}`);

  const updated = await visitor.auth.updateUser({ password: 'reset-chilanga-88' });
  assert.equal(updated.error, null);
  assert.equal((await client().auth.signInWithPassword({ email, password: 'reset-chilanga-88' })).error, null);

  // The link is spent once the new password is set.
  const reused = await client().auth.verifyOtp({ token_hash: link.tokenHash, type: 'recovery' });
  assert.equal(reused.error?.code, 'otp_expired');
  assert.equal(reused.error?.status, 403);
  assert.equal(reused.error?.message, 'Email link is invalid or has expired');
});

test('every auth answer carries the X-Supabase-Api-Version header', async () => {
  const res = await fetch(`${cfg.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: cfg.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: freshEmail(), password: 'x' }),
  });
  assert.equal(res.headers.get('x-supabase-api-version'), '2024-01-01');
  assert.equal(res.status, 400);
});

test('two tabs refreshing with the same token within the grace interval share one successor', async () => {
  // A server with the default 10 s grace interval.
  const graceful = await startServer();
  try {
    const gcfg = await configOf(graceful.url);
    const tab = () => createClient(gcfg.url, gcfg.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
    const { data } = await tab().auth.signUp({ email: freshEmail(), password: PASSWORD });
    const rt = data.session.refresh_token;
    const [a, b] = await Promise.all([
      tab().auth.refreshSession({ refresh_token: rt }),
      tab().auth.refreshSession({ refresh_token: rt }),
    ]);
    assert.equal(a.error, null);
    assert.equal(b.error, null);
    assert.notEqual(a.data.session.refresh_token, rt);
    assert.equal(a.data.session.refresh_token, b.data.session.refresh_token, 'both tabs hold the same successor');
    const next = await tab().auth.refreshSession({ refresh_token: a.data.session.refresh_token });
    assert.equal(next.error, null, 'the shared successor still works');
  } finally {
    await graceful.stop();
  }
});
