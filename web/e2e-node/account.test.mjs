// The real supabase-js (from npm) against a running `salaula serve`: the
// account functions of issue #10 through functions.invoke. account-export
// answers everything held about the caller; account-delete with the
// password removes it, and the old session stops working. What was sent
// with the account's address comes with it only once the account proves
// the address (account-address, account-prove-email).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { createClient, FunctionsHttpError } from '@supabase/supabase-js';
import { binary, configOf, startServer } from './server.mjs';

let server;
let cfg;
before(async () => {
  server = await startServer({ SALAULA_RATE_UPLOADS: '1000/1m' });
  cfg = await configOf(server.url);
});
after(async () => {
  await server?.stop();
});

const PASSWORD = 'chitenge-lusaka-42';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let counter = 0;
/** A signed-in client of a fresh account with an onboarded profile and one photo. */
async function onboarded() {
  const supabase = createClient(cfg.url, cfg.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const email = `mwila.${Date.now()}.${counter++}@example.com`;
  const { data, error } = await supabase.auth.signUp({ email, password: PASSWORD });
  assert.equal(error, null);
  const userId = data.user.id;
  const bucket = supabase.storage.from('user-media');
  const path = `${userId}/${Date.now()}-front.png`;
  assert.equal((await bucket.upload(path, new Blob([PNG], { type: 'image/png' }))).error, null);
  const photo = bucket.getPublicUrl(path).data.publicUrl;
  const { error: onboardError } = await supabase.functions.invoke('onboard-new-user', {
    body: {
      userId, role: 'buyer', full_name: 'Mwila Banda', location: 'Matero, Lusaka', age: 17, parental_consent: true, terms: true,
      phone_number: '0971234567', gender: 'Male', height: '180 cm', waist_size: '32', style_description: 'Football shirts',
      clothing_aesthetics: ['SPORTS WEAR'], inspiration: '', wants_clearance_program: false, body_photo_urls: [photo], profile_pic_url: photo,
    },
  });
  assert.equal(onboardError, null);
  return { supabase, email, userId, photo, session: data.session };
}

/** The function's JSON error body behind a FunctionsHttpError. */
async function errorBody(error) {
  assert.ok(error instanceof FunctionsHttpError, `want FunctionsHttpError, got ${error}`);
  return { status: error.context.status, body: await error.context.json() };
}

test('account-export answers the caller’s data, and only theirs', async () => {
  const me = await onboarded();
  const other = await onboarded();
  const { data, error } = await me.supabase.functions.invoke('account-export');
  assert.equal(error, null);
  assert.equal(data.account.email, me.email);
  assert.equal(data.account.id, me.userId);
  assert.equal(data.profile.phone_number, '+260971234567');
  assert.deepEqual(data.images.map((i) => i.url), [me.photo]);
  assert.equal(data.sessions.length, 1);
  assert.equal(data.sessions[0].current, true);
  assert.deepEqual(data.consents.map((c) => c.kind).sort(), ['parental_consent', 'privacy_policy', 'terms']);
  const text = JSON.stringify(data);
  assert.ok(!text.includes(other.email) && !text.includes(other.userId), 'the export holds another account');

  // Without a session: 401.
  const anon = createClient(cfg.url, cfg.anonKey, { auth: { persistSession: false } });
  const { error: anonError } = await anon.functions.invoke('account-export');
  assert.deepEqual(await errorBody(anonError), { status: 401, body: { error: 'You must be logged in.' } });
});

test('account-delete needs the password, then removes the account and ends its sessions', async () => {
  const me = await onboarded();
  const other = await onboarded();

  const wrong = await me.supabase.functions.invoke('account-delete', { body: { password: 'not-the-password' } });
  assert.deepEqual(await errorBody(wrong.error), {
    status: 401,
    body: { error: 'The password is not correct', fields: { password: 'The password is not correct' } },
  });
  const missing = await me.supabase.functions.invoke('account-delete', { body: {} });
  assert.equal((await errorBody(missing.error)).status, 400);
  assert.equal((await fetch(me.photo)).status, 200);

  const { data, error } = await me.supabase.functions.invoke('account-delete', { body: { password: PASSWORD } });
  assert.equal(error, null);
  assert.equal(data.message, 'Your account has been deleted.');
  assert.equal(data.deleted.rows.users, 1);
  assert.equal(data.deleted.rows.profiles, 1);
  assert.equal(data.deleted.files, 1);
  assert.equal((await fetch(me.photo)).status, 404);
  assert.equal((await fetch(other.photo)).status, 200);

  // The old session is refused everywhere; the old password signs nobody in.
  const again = await me.supabase.functions.invoke('account-export');
  assert.equal((await errorBody(again.error)).status, 401);
  // GET /auth/v1/user answers 403 session_not_found, which supabase-js reports as a missing session.
  const { data: userData, error: userError } = await me.supabase.auth.getUser(me.session.access_token);
  assert.equal(userData.user, null);
  assert.equal(userError?.name, 'AuthSessionMissingError');
  const fresh = createClient(cfg.url, cfg.anonKey, { auth: { persistSession: false } });
  const { error: signInError } = await fresh.auth.signInWithPassword({ email: me.email, password: PASSWORD });
  assert.equal(signInError?.code, 'invalid_credentials');
  const { error: refreshError } = await fresh.auth.refreshSession({ refresh_token: me.session.refresh_token });
  assert.equal(refreshError?.code, 'refresh_token_not_found');

  // The other account is untouched.
  const { data: theirs, error: theirError } = await other.supabase.functions.invoke('get-profile-me');
  assert.equal(theirError, null);
  assert.equal(theirs.email, other.email);
});

/** The newest proof link e-mailed to addr, read with `salaula admin mail`. */
async function proofLink(addr) {
  for (let i = 0; i < 50; i++) {
    const out = execFileSync(binary, ['admin', 'mail', '--to', addr, '--limit', '1', '--data', server.dataDir], { encoding: 'utf8' });
    const link = out.match(/https?:\/\/\S+\/account\/prove_email\?\S+/)?.[0];
    if (link) return new URL(link);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no proof link e-mailed to ${addr}`);
}

test('what was sent with an address comes with the account only once it proves the address', async () => {
  const email = `chanda.${Date.now()}@example.com`;
  const visitor = createClient(cfg.url, cfg.anonKey, { auth: { persistSession: false } });
  const sent = await visitor.functions.invoke('contact-form-submit', {
    body: { firstName: 'Chanda', lastName: 'Phiri', email, phoneNumber: '0977123456', subject: 'other', message: 'Deliveries to Plot 12, Kabulonga' },
  });
  assert.equal(sent.error, null);

  const supabase = createClient(cfg.url, cfg.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  assert.equal((await supabase.auth.signUp({ email, password: PASSWORD })).error, null);
  let { data, error } = await supabase.functions.invoke('account-address');
  assert.equal(error, null);
  assert.deepEqual(data, { email, proven: false, proven_at: null, waitlist_signups: [], contact_messages: [] });
  ({ data, error } = await supabase.functions.invoke('account-export'));
  assert.equal(error, null);
  assert.deepEqual(data.contact_messages, []);
  assert.match(data.address_not_proven, /has not proved that it holds that address/);

  ({ data, error } = await supabase.functions.invoke('account-prove-email'));
  assert.equal(error, null);
  assert.match(data.message, new RegExp(`We have sent a link to ${email.replace(/\./g, '\\.')}`));
  const link = await proofLink(email);
  assert.equal(link.pathname, '/account/prove_email');
  const wrong = await supabase.functions.invoke('account-prove-email-verify', { body: { token_hash: 'not-the-token' } });
  assert.equal((await errorBody(wrong.error)).status, 403);
  ({ data, error } = await supabase.functions.invoke('account-prove-email-verify', { body: { token_hash: link.searchParams.get('token_hash') } }));
  assert.equal(error, null);
  assert.equal(data.proven, true);
  assert.deepEqual(data.contact_messages.map((m) => m.message), ['Deliveries to Plot 12, Kabulonga']);
  ({ data, error } = await supabase.functions.invoke('account-export'));
  assert.equal(error, null);
  assert.equal(data.address_not_proven, undefined);
  assert.equal(data.contact_messages.length, 1);
});
