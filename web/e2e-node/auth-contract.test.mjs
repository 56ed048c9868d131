// The rest of the auth contract with the real supabase-js (from npm) against
// a running `salaula serve`: PKCE links with exchangeCodeForSession, TOTP
// two-step sign-in (auth.mfa), getClaims() checked locally with the JWKS,
// a key rotation, and resend().
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { createClient } from '@supabase/supabase-js';
import { binary, configOf, startServer } from './server.mjs';
import { totp } from './totp.mjs';

let server;
let cfg;
before(async () => {
  server = await startServer({ SALAULA_CONFIRM_EMAIL: 'true', SALAULA_RATE_EMAIL: 'off' });
  cfg = await configOf(server.url);
});
after(async () => {
  await server?.stop();
});

let counter = 0;
const freshEmail = () => `bupe.${Date.now()}.${counter++}@example.com`;
const PASSWORD = 'chitenge-lusaka-42';

/** An in-memory storage, so the PKCE code verifier survives between calls. */
function memoryStorage() {
  const m = new Map();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
}

function client(opts = {}) {
  return createClient(cfg.url, cfg.anonKey, {
    auth: { persistSession: true, storage: memoryStorage(), autoRefreshToken: false, detectSessionInUrl: false, ...opts },
  });
}

/** The newest link e-mailed to addr, read with `salaula admin mail`. */
async function lastLink(addr, notBefore = '') {
  for (let i = 0; i < 50; i++) {
    const out = execFileSync(binary, ['admin', 'mail', '--to', addr, '--limit', '1', '--data', server.dataDir], { encoding: 'utf8' });
    const link = out.match(/https?:\/\/\S+/)?.[0];
    if (link && link !== notBefore) return link;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no new e-mail to ${addr}`);
}

/** The hidden fields of the form on a link's page. */
function formFields(page) {
  const unescape = (v) => v.replace(/&#43;/g, '+').replace(/&amp;/g, '&').replace(/&#34;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  const fields = new URLSearchParams();
  for (const m of page.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields.set(unescape(m[1]), unescape(m[2]));
  return fields;
}

/**
 * Opens an e-mailed /auth/v1/verify link as a person does and returns where
 * it sends the browser: opening it answers a page and spends nothing (mail
 * systems open links to scan them); its button POSTs the form back.
 */
async function openLink(link) {
  const url = link.replace(/^https?:\/\/[^/]+/, server.url);
  const page = await fetch(url, { redirect: 'manual' });
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /<form method="post" action="\/auth\/v1\/verify">/);
  const res = await fetch(`${server.url}/auth/v1/verify`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: formFields(html),
    redirect: 'manual',
  });
  assert.equal(res.status, 303);
  return new URL(res.headers.get('location'), server.url);
}

test('PKCE sign-up confirmation: the e-mailed link carries a one-time code, exchanged once', async () => {
  const supabase = client({ flowType: 'pkce' });
  const email = freshEmail();
  const { data, error } = await supabase.auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: `${server.url}/sign_up` } });
  assert.equal(error, null);
  assert.equal(data.session, null, 'no session before the address is confirmed');
  const to = await openLink(await lastLink(email));
  const code = to.searchParams.get('code');
  assert.ok(code, `a code in ${to}`);
  assert.equal(to.hash, '', 'no tokens in the URL');
  const ex = await supabase.auth.exchangeCodeForSession(code);
  assert.equal(ex.error, null);
  assert.equal(ex.data.user.email, email);
  assert.ok(ex.data.user.email_confirmed_at);
  const again = await client({ flowType: 'pkce' }).auth.exchangeCodeForSession(code);
  assert.ok(again.error, 'the code works once');
});

test('opening a confirmation link spends nothing: the account signs in only after the button', async () => {
  const email = freshEmail();
  await client().auth.signUp({ email, password: PASSWORD });
  const link = await lastLink(email);
  for (let i = 0; i < 2; i++) {
    const page = await fetch(link.replace(/^https?:\/\/[^/]+/, server.url), { redirect: 'manual' });
    assert.equal(page.status, 200, 'a page, not a redirect with a session');
  }
  assert.equal((await client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code, 'email_not_confirmed');
  const to = await openLink(link);
  assert.match(to.hash, /access_token=/);
  assert.equal((await client().auth.signInWithPassword({ email, password: PASSWORD })).error, null);
});

test('PKCE password reset: exchangeCodeForSession answers a recovery session that can set the password', async () => {
  const email = freshEmail();
  // An account, confirmed through its link.
  await client().auth.signUp({ email, password: PASSWORD });
  const confirm = await openLink(await lastLink(email));
  assert.match(confirm.hash, /access_token=/);

  const supabase = client({ flowType: 'pkce' });
  const events = [];
  supabase.auth.onAuthStateChange((e) => events.push(e));
  const before = await lastLink(email);
  const { error } = await supabase.auth.resetPasswordForEmail(email, { redirectTo: `${server.url}/reset_password` });
  assert.equal(error, null);
  const to = await openLink(await lastLink(email, before));
  assert.equal(to.pathname, '/reset_password');
  const ex = await supabase.auth.exchangeCodeForSession(to.searchParams.get('code'));
  assert.equal(ex.error, null);
  assert.equal(ex.data.redirectType, 'recovery');
  assert.ok(events.includes('PASSWORD_RECOVERY'));
  assert.equal((await supabase.auth.updateUser({ password: 'new-kabwata-77' })).error, null);
  const signIn = await client().auth.signInWithPassword({ email, password: 'new-kabwata-77' });
  assert.equal(signIn.error, null);
});

test('a wrong code verifier is refused with the hosted error code', async () => {
  const supabase = client({ flowType: 'pkce' });
  const email = freshEmail();
  await supabase.auth.signUp({ email, password: PASSWORD });
  const code = (await openLink(await lastLink(email))).searchParams.get('code');
  const other = client({ flowType: 'pkce' });
  await other.auth.signUp({ email: freshEmail(), password: PASSWORD }); // leaves its own verifier
  const { error } = await other.auth.exchangeCodeForSession(code);
  assert.equal(error?.code, 'bad_code_verifier');
});

/** A confirmed, signed-in client. */
async function signedIn() {
  const email = freshEmail();
  await client().auth.signUp({ email, password: PASSWORD });
  await openLink(await lastLink(email));
  const supabase = client();
  const { error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
  assert.equal(error, null);
  return { supabase, email };
}

/** GET /admin/v1/overview with the client's access token: status and JSON body. */
async function adminOverview(supabase) {
  const { data } = await supabase.auth.getSession();
  const res = await fetch(`${server.url}/admin/v1/overview`, { headers: { Authorization: `Bearer ${data.session.access_token}` } });
  return { status: res.status, body: await res.json() };
}

test('a password-only session of an account with two-step sign-in cannot undo it, nor take or delete the account', async () => {
  const { supabase, email } = await signedIn();
  const { data: f } = await supabase.auth.mfa.enroll({ factorType: 'totp' });
  assert.equal((await supabase.auth.mfa.challengeAndVerify({ factorId: f.id, code: totp(f.totp.secret) })).error, null);

  const aal1 = client();
  assert.equal((await aal1.auth.signInWithPassword({ email, password: PASSWORD })).error, null);
  let { error } = await aal1.auth.updateUser({ password: 'a-brand-new-pass-9' });
  assert.equal(error?.status, 403);
  assert.equal(error?.code, 'insufficient_aal');
  assert.equal(error?.message, 'AAL2 session is required to update email or password when MFA is enabled.');
  ({ error } = await aal1.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Tablet' }));
  assert.equal(error?.code, 'insufficient_aal');
  assert.equal(error?.message, 'AAL2 required to enroll a new factor');
  ({ error } = await aal1.auth.mfa.unenroll({ factorId: f.id }));
  assert.equal(error?.status, 422);
  assert.equal(error?.code, 'insufficient_aal');
  for (const [name, body] of [['account-export', undefined], ['account-delete', { password: PASSWORD }]]) {
    const res = await aal1.functions.invoke(name, { method: 'POST', body });
    assert.equal(res.error?.context?.status, 403, name);
    assert.deepEqual(await res.error.context.json(), { error: 'AAL2 required: verify your two-step sign-in code first', error_code: 'insufficient_aal' });
  }

  // The same session, once it passes the code, can.
  const code = totp(f.totp.secret, Date.now() + 30000);
  assert.equal((await aal1.auth.mfa.challengeAndVerify({ factorId: f.id, code })).error, null);
  assert.equal((await aal1.functions.invoke('account-export', { method: 'POST' })).error, null);
  assert.equal((await aal1.auth.updateUser({ password: 'a-brand-new-pass-9' })).error, null);
});

test('an operator without aal2 is refused by /admin/v1, and accepted after verifying a code', async () => {
  const { supabase, email } = await signedIn();
  const out = execFileSync(binary, ['admin', 'grant', email, '--data', server.dataDir], { encoding: 'utf8' });
  assert.match(out, /two-step sign-in/);
  // No factor yet: 403 insufficient_aal, telling the operator to enrol (not the non-operator's 403).
  let r = await adminOverview(supabase);
  assert.equal(r.status, 403);
  assert.equal(r.body.error_code, 'insufficient_aal');
  assert.equal(r.body.error, 'Two-step sign-in is required: enrol an authenticator app first');

  const { data: f, error } = await supabase.auth.mfa.enroll({ factorType: 'totp' });
  assert.equal(error, null);
  assert.equal((await adminOverview(supabase)).body.error_code, 'insufficient_aal', 'an unverified factor is not enough');
  assert.equal((await supabase.auth.mfa.challengeAndVerify({ factorId: f.id, code: totp(f.totp.secret) })).error, null);
  r = await adminOverview(supabase);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(typeof r.body.totals, 'object');

  // A fresh password sign-in (aal1) is refused until it passes the code.
  const again = client();
  assert.equal((await again.auth.signInWithPassword({ email, password: PASSWORD })).error, null);
  assert.equal((await again.auth.mfa.getAuthenticatorAssuranceLevel()).data.currentLevel, 'aal1');
  r = await adminOverview(again);
  assert.equal(r.status, 403);
  assert.equal(r.body.error_code, 'insufficient_aal');
  assert.equal(r.body.error, 'AAL2 required: verify your two-step sign-in code first');
  const code = totp(f.totp.secret, Date.now() + 30000);
  assert.equal((await again.auth.mfa.challengeAndVerify({ factorId: f.id, code })).error, null);
  assert.equal((await adminOverview(again)).status, 200);

  // A non-operator with two-step sign-in gets the plain 403.
  const other = await signedIn();
  const { data: g } = await other.supabase.auth.mfa.enroll({ factorType: 'totp' });
  assert.equal((await other.supabase.auth.mfa.challengeAndVerify({ factorId: g.id, code: totp(g.totp.secret) })).error, null);
  r = await adminOverview(other.supabase);
  assert.equal(r.status, 403);
  assert.deepEqual(r.body, { error: 'This page is for the Salaula team' });
});

test('two-step sign-in: enroll, scan, challenge, verify, AAL, reused code refused, unenroll', async () => {
  const { supabase, email } = await signedIn();
  let aal = (await supabase.auth.mfa.getAuthenticatorAssuranceLevel()).data;
  assert.deepEqual([aal.currentLevel, aal.nextLevel], ['aal1', 'aal1']);

  const { data: f, error } = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'My phone' });
  assert.equal(error, null);
  assert.match(f.totp.qr_code, /^data:image\/svg\+xml;utf-8,<svg/);
  assert.match(f.totp.uri, /^otpauth:\/\/totp\/Salaula:/);
  const code = totp(f.totp.secret);
  const { data: ch } = await supabase.auth.mfa.challenge({ factorId: f.id });
  const events = [];
  supabase.auth.onAuthStateChange((e) => events.push(e));
  const v = await supabase.auth.mfa.verify({ factorId: f.id, challengeId: ch.id, code });
  assert.equal(v.error, null);
  assert.ok(events.includes('MFA_CHALLENGE_VERIFIED'));
  aal = (await supabase.auth.mfa.getAuthenticatorAssuranceLevel()).data;
  assert.deepEqual([aal.currentLevel, aal.nextLevel], ['aal2', 'aal2']);
  assert.equal(aal.currentAuthenticationMethods[0].method, 'totp');
  const factors = (await supabase.auth.mfa.listFactors()).data;
  assert.equal(factors.totp.length, 1);

  // Signing in again: aal1 with aal2 next, the same code is refused, the next one works.
  const again = client();
  await again.auth.signInWithPassword({ email, password: PASSWORD });
  aal = (await again.auth.mfa.getAuthenticatorAssuranceLevel()).data;
  assert.deepEqual([aal.currentLevel, aal.nextLevel], ['aal1', 'aal2']);
  const reused = await again.auth.mfa.challengeAndVerify({ factorId: f.id, code });
  assert.equal(reused.error?.code, 'mfa_verification_rejected');
  const next = await again.auth.mfa.challengeAndVerify({ factorId: f.id, code: totp(f.totp.secret, Date.now() + 30000) });
  assert.equal(next.error, null);

  const un = await again.auth.mfa.unenroll({ factorId: f.id });
  assert.equal(un.error, null);
  assert.equal((await again.auth.mfa.listFactors()).data.all.length, 0);
});

test('getClaims() checks the token locally: works with the server cut off after the first key-set fetch', async () => {
  const { supabase } = await signedIn();
  let calls = 0;
  let cut = false;
  const counting = createClient(cfg.url, cfg.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: {
      fetch: (url, init) => {
        calls++;
        if (cut) return Promise.reject(new TypeError('network down'));
        return fetch(url, init);
      },
    },
  });
  const token = (await supabase.auth.getSession()).data.session.access_token;
  const first = await counting.auth.getClaims(token);
  assert.equal(first.error, null);
  assert.equal(first.data.header.alg, 'ES256');
  assert.ok(first.data.header.kid);
  assert.equal(first.data.claims.aud, 'authenticated');
  assert.equal(calls, 1, 'one fetch of the key set');
  cut = true;
  const second = await counting.auth.getClaims(token);
  assert.equal(second.error, null, 'no network needed');
  assert.equal(calls, 1);
});

test('a token signed before a key rotation is still accepted; an unknown kid is refused', async () => {
  const { supabase } = await signedIn();
  const token = (await supabase.auth.getSession()).data.session.access_token;
  const out = execFileSync(binary, ['admin', 'keys', 'rotate', '--data', server.dataDir], { encoding: 'utf8' });
  assert.match(out, /new signing key/);
  const fresh = client();
  const claims = await fresh.auth.getClaims(token);
  assert.equal(claims.error, null, 'old token verifies against the served key set');
  const user = await fresh.auth.getUser(token);
  assert.equal(user.error, null, 'and the server accepts it');
  // The server reloads its keys for the key set at most every 5 seconds.
  let keys = [];
  for (let i = 0; i < 40 && keys.length < 2; i++) {
    keys = (await (await fetch(`${server.url}/auth/v1/.well-known/jwks.json`)).json()).keys;
    if (keys.length < 2) await new Promise((r) => setTimeout(r, 250));
  }
  assert.equal(keys.length, 2, 'old and new public keys served');

  const [h, p, s] = token.split('.');
  const header = JSON.parse(Buffer.from(h, 'base64url'));
  const unknown = Buffer.from(JSON.stringify({ ...header, kid: 'not-a-key-of-ours' })).toString('base64url');
  const bad = await client().auth.getClaims(`${unknown}.${p}.${s}`);
  assert.ok(bad.error, 'unknown kid refused by the client');
  const res = await fetch(`${server.url}/auth/v1/user`, { headers: { apikey: cfg.anonKey, Authorization: `Bearer ${unknown}.${p}.${s}` } });
  assert.equal(res.status, 403);
});

test('resend() mails a new confirmation link that works', async () => {
  const supabase = client();
  const email = freshEmail();
  await supabase.auth.signUp({ email, password: PASSWORD });
  const first = await lastLink(email);
  const { error } = await supabase.auth.resend({ type: 'signup', email });
  assert.equal(error, null);
  const second = await lastLink(email, first);
  assert.notEqual(second, first);
  const to = await openLink(second);
  assert.match(to.hash, /access_token=/);
  const signIn = await client().auth.signInWithPassword({ email, password: PASSWORD });
  assert.equal(signIn.error, null, 'confirmed by the resent link');
  const unknown = await supabase.auth.resend({ type: 'signup', email: freshEmail() });
  assert.equal(unknown.error, null, 'an unknown address gets the same answer');
});

test('calls we do not offer answer the hosted disabled-feature codes', async () => {
  const supabase = client();
  assert.equal((await supabase.auth.signInWithOtp({ email: freshEmail() })).error?.code, 'otp_disabled');
  assert.equal((await supabase.auth.signInWithOtp({ phone: '+260971234567' })).error?.code, 'phone_provider_disabled');
  assert.equal((await supabase.auth.signInAnonymously()).error?.code, 'anonymous_provider_disabled');
  assert.equal((await supabase.auth.signInWithSSO({ domain: 'example.com' })).error?.code, 'sso_provider_disabled');
  const { supabase: s } = await signedIn();
  assert.equal((await s.auth.mfa.enroll({ factorType: 'phone', phone: '+260971234567' })).error?.code, 'mfa_phone_enroll_not_enabled');
});

test("what is not offered answers in the hosted service's words, so clients that match on them behave alike", async () => {
  const supabase = client();
  const otp = await supabase.auth.verifyOtp({ type: 'magiclink', token_hash: 'x' });
  assert.equal(otp.error?.status, 403);
  assert.equal(otp.error?.code, 'otp_expired');
  assert.equal(otp.error?.message, 'Token has expired or is invalid');
  const sms = await supabase.auth.verifyOtp({ type: 'sms', phone: '+260971234567', token: '123456' });
  assert.equal(sms.error?.code, 'otp_expired');

  const sso = await supabase.auth.signInWithSSO({ domain: 'example.com' });
  assert.equal(sso.error?.code, 'sso_provider_disabled');
  assert.equal(sso.error?.message, 'SAML 2.0 is disabled');

  const web3 = await supabase.auth.signInWithWeb3({ chain: 'ethereum', message: 'Sign in to Salaula', signature: '0x00' });
  assert.equal(web3.error?.code, 'web3_provider_disabled');
  assert.equal(web3.error?.message, 'Web3 provider is disabled');

  const { supabase: s } = await signedIn();
  const link = await s.auth.linkIdentity({ provider: 'github' });
  assert.equal(link.error?.code, 'manual_linking_disabled');
  assert.equal(link.error?.message, 'Manual linking is disabled');
});
