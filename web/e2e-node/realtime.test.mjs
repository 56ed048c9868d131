// Realtime with the real supabase-js (from npm) against a running
// `salaula serve`: channel().on('postgres_changes') as an operator and as a
// person, the access rules, joins before the accessToken option's token
// comes, a sign-out closing a channel, broadcast with ack,
// heartbeats keeping a channel open past 60 s, and a server restart the
// client rides through.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { createClient } from '@supabase/supabase-js';
import { binary, configOf, startServer } from './server.mjs';
import { totp } from './totp.mjs';

let server;
let cfg;
const clients = [];
before(async () => {
  server = await startServer({ SALAULA_RATE_UPLOADS: '1000/1m' });
  cfg = await configOf(server.url);
});
after(async () => {
  for (const c of clients) await c.removeAllChannels();
  await server?.stop();
});

let counter = 0;
const freshEmail = (who = 'mwila') => `${who}.${Date.now()}.${counter++}@example.com`;
const PASSWORD = 'chitenge-lusaka-42';
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

/**
 * Node 20's WebSocket fires no close event after a refused connection (a
 * browser fires error, then close 1006, as the WebSocket standard says), so
 * realtime-js would never schedule its next reconnect; this one does.
 */
class StandardWebSocket extends WebSocket {
  constructor(url, protocols) {
    super(url, protocols);
    this.addEventListener('error', () => {
      if (this.readyState === WebSocket.CONNECTING) setTimeout(() => this.onclose?.({ code: 1006, reason: '', wasClean: false }), 0);
    });
  }
}

function client(realtime = {}) {
  const c = createClient(cfg.url, cfg.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime,
  });
  clients.push(c);
  return c;
}

/** A signed-in person: client, user id. */
async function person(realtime) {
  const supabase = client(realtime);
  const { data, error } = await supabase.auth.signUp({ email: freshEmail(), password: PASSWORD });
  assert.equal(error, null);
  return { supabase, userId: data.user.id, email: data.user.email };
}

/** An operator with two-step sign-in done (an aal2 session). */
async function operator(realtime) {
  const p = await person(realtime);
  execFileSync(binary, ['admin', 'grant', p.email, '--data', server.dataDir], { encoding: 'utf8' });
  const { data: f, error } = await p.supabase.auth.mfa.enroll({ factorType: 'totp' });
  assert.equal(error, null);
  assert.equal((await p.supabase.auth.mfa.challengeAndVerify({ factorId: f.id, code: totp(f.totp.secret) })).error, null);
  // supabase-js hands realtime a new token on SIGNED_IN and TOKEN_REFRESHED,
  // not after a verified code: take the aal2 session's token now (the app does the same).
  await p.supabase.realtime.setAuth();
  return p;
}

/**
 * subscribe joins channel and resolves with the first final status
 * (SUBSCRIBED, CHANNEL_ERROR, TIMED_OUT, CLOSED) and its error; every
 * status seen is kept in channel.statuses.
 */
function subscribe(channel) {
  channel.statuses = [];
  return new Promise((resolve) => {
    channel.subscribe((status, err) => {
      channel.statuses.push(status);
      resolve({ status, err });
    });
  });
}

/** waitFor resolves with the first item of list that pred accepts, within ms. */
async function waitFor(list, pred, ms, what) {
  const deadline = Date.now() + ms;
  for (;;) {
    const hit = list.find(pred);
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms; got ${JSON.stringify(list)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('an operator receives a waitlist sign-up made through functions.invoke within a second', async () => {
  const { supabase } = await operator();
  const events = [];
  const ch = supabase
    .channel('console-waitlist')
    .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'waitlist_signups' }, (p) => events.push(p));
  const { status, err } = await subscribe(ch);
  assert.equal(status, 'SUBSCRIBED', String(err));

  const visitor = client();
  const email = freshEmail('visitor');
  const sent = Date.now();
  const { error } = await visitor.functions.invoke('waitlist-signup', { body: { email, programName: 'Upcycling Initiative' } });
  assert.equal(error, null);
  const ev = await waitFor(events, (e) => e.new.email === email, 1000, 'sign-up event');
  assert.ok(Date.now() - sent < 1000);
  assert.equal(ev.eventType, 'INSERT');
  assert.equal(ev.schema, 'public');
  assert.equal(ev.table, 'waitlist_signups');
  assert.equal(ev.new.program, 'Upcycling Initiative');
  assert.match(ev.new.id, /^[0-9a-f-]{36}$/);
  assert.ok(!Number.isNaN(Date.parse(ev.commit_timestamp)));
  assert.deepEqual(ev.old, {});
  assert.equal('unsubscribe_token_hash' in ev.new, false, 'no token hash leaves the server');
});

test("a person's join to the waitlist is refused with a reason, and no event reaches them", async () => {
  const { supabase } = await person();
  const events = [];
  const ch = supabase
    .channel('snoop')
    .on('postgres_changes', { event: '*', schema: 'public', table: 'waitlist_signups' }, (p) => events.push(p));
  const { status, err } = await subscribe(ch);
  assert.equal(status, 'CHANNEL_ERROR');
  assert.match(err.message, /only your own profile/);
  await client().functions.invoke('waitlist-signup', { body: { email: freshEmail('visitor'), programName: 'Upcycling Initiative' } });
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(events, []);
  await supabase.removeChannel(ch);

  // A visitor with only the anon key is refused too.
  const anon = client();
  const { status: s2, err: e2 } = await subscribe(
    anon.channel('anon').on('postgres_changes', { event: '*', schema: 'public', table: 'profiles' }, () => {}),
  );
  assert.equal(s2, 'CHANNEL_ERROR');
  assert.match(e2.message, /Sign in/);
  await anon.removeAllChannels();
});

test('a person receives changes to their own profile and none of another person\'s', async () => {
  const me = await person();
  const other = await person();
  const mine = [];
  const ch = me.supabase
    .channel('my-profile')
    .on('postgres_changes', { event: '*', schema: 'public', table: 'profiles', filter: `user_id=eq.${me.userId}` }, (p) => mine.push(p));
  const { status, err } = await subscribe(ch);
  assert.equal(status, 'SUBSCRIBED', String(err));

  // Someone else's filter is refused.
  const { status: s2, err: e2 } = await subscribe(
    me.supabase.channel('their-profile').on('postgres_changes', { event: '*', schema: 'public', table: 'profiles', filter: `user_id=eq.${other.userId}` }, () => {}),
  );
  assert.equal(s2, 'CHANNEL_ERROR');
  assert.match(e2.message, /only your own profile/);

  const onboard = async (p, name) => {
    const bucket = p.supabase.storage.from('user-media');
    const logo = `${p.userId}/logos/${Date.now()}-logo.webp`;
    assert.equal((await bucket.upload(logo, new Blob([WEBP]))).error, null);
    const { error } = await p.supabase.functions.invoke('onboard-seller', {
      body: {
        userId: p.userId, role: 'seller', full_name: name, location: 'Kabwata, Lusaka', age: 30, phone_number: '+260 97 123 4567',
        gender: 'female', business_name: `${name} Thrift`, registration_number: null, business_mode: 'Social Media Sale',
        logo_urls: [bucket.getPublicUrl(logo).data.publicUrl],
      },
    });
    assert.equal(error, null);
  };
  await onboard(other, 'Other Person');
  await onboard(me, 'Mwila Banda');
  const ev = await waitFor(mine, (e) => e.new.full_name === 'Mwila Banda', 2000, 'own profile change');
  assert.equal(ev.new.user_id, me.userId);
  assert.equal(ev.new.role, 'seller');
  assert.ok(Array.isArray(ev.new.logo_urls));
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(mine.filter((e) => e.new.user_id !== me.userId).length, 0, 'nothing of the other person');
});

test("a sign-out elsewhere closes the person's channel at once, and the team's channel refuses a person", async () => {
  const me = await person();
  const ch = me.supabase
    .channel(`profile:${me.userId}`)
    .on('postgres_changes', { event: '*', schema: 'public', table: 'profiles', filter: `user_id=eq.${me.userId}` }, () => {});
  const { status, err } = await subscribe(ch);
  assert.equal(status, 'SUBSCRIBED', String(err));
  // The same person, on another device, signs out everywhere: the channel closes well before the 30 s re-check.
  const elsewhere = client();
  assert.equal((await elsewhere.auth.signInWithPassword({ email: me.email, password: PASSWORD })).error, null);
  assert.equal((await elsewhere.auth.signOut({ scope: 'global' })).error, null);
  await waitFor(ch.statuses, (s) => s === 'CLOSED', 2000, 'CLOSED after the sign-out');

  const you = await person();
  const { status: s2, err: e2 } = await subscribe(you.supabase.channel('console'));
  assert.equal(s2, 'CHANNEL_ERROR');
  assert.match(e2.message, /Salaula team's/);
});

test('broadcast reaches the other clients of the channel, with ack and self', async () => {
  const a = await person();
  const b = await person();
  const gotA = [];
  const gotB = [];
  const chA = a.supabase.channel('room-1', { config: { broadcast: { ack: true, self: true } } });
  chA.on('broadcast', { event: 'wave' }, (m) => gotA.push(m));
  const chB = b.supabase.channel('room-1');
  chB.on('broadcast', { event: 'wave' }, (m) => gotB.push(m));
  assert.equal((await subscribe(chA)).status, 'SUBSCRIBED');
  assert.equal((await subscribe(chB)).status, 'SUBSCRIBED');
  const res = await chA.send({ type: 'broadcast', event: 'wave', payload: { from: 'a', n: 1 } });
  assert.equal(res, 'ok');
  const m = await waitFor(gotB, () => true, 1000, 'broadcast at b');
  assert.deepEqual(m.payload, { from: 'a', n: 1 });
  assert.equal(m.event, 'wave');
  await waitFor(gotA, () => true, 1000, 'broadcast back to a (self)');
  // b did not ask for self: its own message does not come back.
  await chB.send({ type: 'broadcast', event: 'wave', payload: { from: 'b' } });
  await waitFor(gotA, (x) => x.payload.from === 'b', 1000, 'b at a');
  assert.equal(gotB.filter((x) => x.payload.from === 'b').length, 0);
});

test('with the accessToken option, a public topic is joined at once and a personal one once the token arrives', async () => {
  const me = await person();
  const { data } = await me.supabase.auth.getSession();
  // The token comes only when the test says so: the first joins carry no access_token.
  let release;
  const tokenReady = new Promise((ok) => (release = ok));
  const c = createClient(cfg.url, cfg.anonKey, {
    accessToken: async () => {
      await tokenReady;
      return data.session.access_token;
    },
  });
  clients.push(c);
  const got = [];
  const pub = c.channel(`lobby-${Date.now()}`, { config: { broadcast: { ack: true, self: true } } });
  pub.on('broadcast', { event: 'hello' }, (m) => got.push(m));
  const first = await subscribe(pub);
  assert.equal(first.status, 'SUBSCRIBED', String(first.err));

  const own = c.channel(`profile:${me.userId}`);
  const refused = await subscribe(own);
  assert.equal(refused.status, 'CHANNEL_ERROR');
  assert.match(refused.err.message, /not open to the anon key, and the join carries no person's access_token/);

  release();
  await waitFor(own.statuses, (s) => s === 'SUBSCRIBED', 5000, 'SUBSCRIBED once the token came');
  // The public channel took the token in an access_token message and goes on.
  assert.equal(await pub.send({ type: 'broadcast', event: 'hello', payload: { n: 1 } }), 'ok');
  await waitFor(got, (m) => m.payload.n === 1, 1000, 'the broadcast back (self)');
  assert.deepEqual(pub.statuses, ['SUBSCRIBED']);
});

test('heartbeats keep a channel open past 60 s', { timeout: 120_000 }, async () => {
  const { supabase } = await operator();
  const events = [];
  const ch = supabase
    .channel('long')
    .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'waitlist_signups' }, (p) => events.push(p));
  assert.equal((await subscribe(ch)).status, 'SUBSCRIBED');
  await new Promise((r) => setTimeout(r, 65_000));
  assert.deepEqual(ch.statuses, ['SUBSCRIBED'], 'no error, close or rejoin meanwhile');
  assert.equal(supabase.realtime.isConnected(), true);
  const email = freshEmail('late');
  await client().functions.invoke('waitlist-signup', { body: { email, programName: 'Upcycling Initiative' } });
  await waitFor(events, (e) => e.new.email === email, 1000, 'event after 65 s');
});

test('a server restart leads the client through CHANNEL_ERROR to SUBSCRIBED again', { timeout: 60_000 }, async () => {
  const { supabase } = await operator({ transport: StandardWebSocket });
  const events = [];
  const ch = supabase
    .channel('restart')
    .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'waitlist_signups' }, (p) => events.push(p));
  assert.equal((await subscribe(ch)).status, 'SUBSCRIBED');
  await server.restart();
  await waitFor(ch.statuses, (s) => s === 'CHANNEL_ERROR', 15_000, 'CHANNEL_ERROR');
  const i = ch.statuses.indexOf('CHANNEL_ERROR');
  await waitFor(ch.statuses, (s, j) => j > i && s === 'SUBSCRIBED', 20_000, 'SUBSCRIBED again');
  const email = freshEmail('after');
  await client().functions.invoke('waitlist-signup', { body: { email, programName: 'Upcycling Initiative' } });
  await waitFor(events, (e) => e.new.email === email, 1000, 'event after the restart');
});

test("operators see each other's console page through presence; a person may not join there", async () => {
  const a = await operator();
  const b = await operator();
  const join = (p, page) => {
    const ch = p.supabase.channel('console-presence', { config: { presence: { key: p.userId } } }).on('presence', { event: 'sync' }, () => {});
    return subscribe(ch).then(async ({ status, err }) => {
      assert.equal(status, 'SUBSCRIBED', String(err));
      assert.equal(await ch.track({ email: p.email, page }), 'ok');
      return ch;
    });
  };
  const chA = await join(a, '/admin/messages');
  const chB = await join(b, '/admin/messages');
  const pageOf = (ch, who) => ch.presenceState()[who.userId]?.[0]?.page;
  await waitFor([chA], (c) => pageOf(c, b) === '/admin/messages', 5000, "b's page seen by a");
  await waitFor([chB], (c) => pageOf(c, a) === '/admin/messages', 5000, "a's page seen by b");

  // A new page replaces the old one.
  assert.equal(await chB.track({ email: b.email, page: '/admin/people' }), 'ok');
  await waitFor([chA], (c) => pageOf(c, b) === '/admin/people' && c.presenceState()[b.userId].length === 1, 5000, "b's new page");

  // Closing b's channel removes b.
  await b.supabase.removeChannel(chB);
  await waitFor([chA], (c) => !c.presenceState()[b.userId], 5000, 'b gone');

  const { supabase } = await person();
  const { status, err } = await subscribe(supabase.channel('console-presence').on('presence', { event: 'sync' }, () => {}));
  assert.equal(status, 'CHANNEL_ERROR');
  assert.match(err.message, /Salaula team's/);
});
