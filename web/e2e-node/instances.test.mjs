// Two `salaula serve` instances on one PostgreSQL database with one signing
// secret, and the real supabase-js from npm: presence tracked on one
// instance is seen (join, state, leave) by a client of the other, and a
// REST broadcast (httpSend, send() before a join) made on one reaches a
// channel joined on the other.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { createClient } from '@supabase/supabase-js';
import { configOf, startServer } from './server.mjs';

const adminURL = process.env.SALAULA_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `salaula_node_${process.pid}_${Date.now()}`;
const dbURL = (() => {
  const u = new URL(adminURL);
  u.pathname = `/${dbName}`;
  u.searchParams.set('sslmode', 'disable');
  return u.toString();
})();

let one;
let two;
let anonKey;
const clients = [];
before(async () => {
  execFileSync('psql', [adminURL, '-qc', `CREATE DATABASE ${dbName}`]);
  const env = { DATABASE_URL: dbURL, SALAULA_JWT_SECRET: 'one-secret-shared-by-every-instance-0123456789' };
  // One after the other: each migrates the empty database first.
  one = await startServer(env);
  two = await startServer(env);
  anonKey = (await configOf(one.url)).anonKey;
});
after(async () => {
  for (const c of clients) await c.removeAllChannels();
  await one?.stop();
  await two?.stop();
  execFileSync('psql', [adminURL, '-qc', `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`]);
});

let counter = 0;
const PASSWORD = 'chitenge-lusaka-42';

function client(server) {
  const c = createClient(server.url, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  clients.push(c);
  return c;
}

/** A signed-up person's client on server. */
async function person(server, who) {
  const supabase = client(server);
  const { data, error } = await supabase.auth.signUp({ email: `${who}.${Date.now()}.${counter++}@example.com`, password: PASSWORD });
  assert.equal(error, null);
  return { supabase, userId: data.user.id };
}

function subscribe(channel) {
  return new Promise((resolve) => channel.subscribe((status, err) => resolve({ status, err })));
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

test('presence tracked on instance 1 reaches a client of instance 2: join, state, leave', async () => {
  const topic = `room-${Date.now()}`;
  const mutale = await person(one, 'mutale');
  const chanda = await person(two, 'chanda');

  const seen = [];
  const watch = chanda.supabase
    .channel(topic, { config: { presence: { key: 'chanda' } } })
    .on('presence', { event: 'join' }, ({ key, newPresences }) => seen.push({ ev: 'join', key, metas: newPresences }))
    .on('presence', { event: 'leave' }, ({ key, leftPresences }) => seen.push({ ev: 'leave', key, metas: leftPresences }));
  assert.equal((await subscribe(watch)).status, 'SUBSCRIBED');

  const ch = mutale.supabase.channel(topic, { config: { presence: { key: 'mutale' } } }).on('presence', { event: 'sync' }, () => {});
  assert.equal((await subscribe(ch)).status, 'SUBSCRIBED');
  assert.equal(await ch.track({ page: 'messages' }), 'ok');

  const join = await waitFor(seen, (e) => e.ev === 'join' && e.key === 'mutale', 5000, 'join on instance 2');
  assert.equal(join.metas[0].page, 'messages');
  assert.ok(join.metas[0].presence_ref, 'each presence carries its ref');
  assert.deepEqual(Object.keys(watch.presenceState()), ['mutale']);

  // A client joining instance 2 later learns who is there.
  const late = (await person(two, 'bwalya')).supabase;
  const lateCh = late.channel(topic).on('presence', { event: 'sync' }, () => {});
  assert.equal((await subscribe(lateCh)).status, 'SUBSCRIBED');
  await waitFor([lateCh], (c) => c.presenceState().mutale?.[0]?.page === 'messages', 5000, "mutale in the late client's state");

  // Closing the channel on instance 1 is a leave on instance 2.
  await mutale.supabase.removeChannel(ch);
  const left = await waitFor(seen, (e) => e.ev === 'leave' && e.key === 'mutale', 5000, 'leave on instance 2');
  assert.equal(left.metas[0].page, 'messages');
  await waitFor([lateCh], (c) => !c.presenceState().mutale, 5000, "mutale gone from the late client's state");
});

test('a REST broadcast on instance 1 reaches a channel joined on instance 2; refusals carry reasons', async () => {
  const topic = `wave-${Date.now()}`;
  const listener = await person(two, 'listener');
  const got = [];
  const ch = listener.supabase.channel(topic).on('broadcast', { event: 'wave' }, (m) => got.push(m.payload));
  assert.equal((await subscribe(ch)).status, 'SUBSCRIBED');

  const sender = await person(one, 'sender');
  const out = sender.supabase.channel(topic); // never joined
  assert.deepEqual(await out.httpSend('wave', { n: 1 }), { success: true });
  await waitFor(got, (p) => p.n === 1, 5000, 'httpSend broadcast on instance 2');
  assert.equal(await out.send({ type: 'broadcast', event: 'wave', payload: { n: 2 } }), 'ok');
  await waitFor(got, (p) => p.n === 2, 5000, 'send() fallback broadcast on instance 2');

  // The socket's rules: a visitor without a session, the team's topic, a private channel.
  const anon = client(one).channel(topic);
  await assert.rejects(anon.httpSend('wave', { n: 3 }), /Sign in to use live updates/);
  await assert.rejects(sender.supabase.channel('console').httpSend('wave', { n: 4 }), /Salaula team's/);
  await assert.rejects(sender.supabase.channel(`${topic}-private`, { config: { private: true } }).httpSend('wave', { n: 5 }), /private channels are not offered/);
  // Each refusal was answered before anything was sent: a later message
  // arrives and the refused ones never did.
  assert.deepEqual(await out.httpSend('wave', { n: 6 }), { success: true });
  await waitFor(got, (p) => p.n === 6, 5000, 'the last broadcast');
  assert.deepEqual(got.map((p) => p.n), [1, 2, 6]);
});
