// Storage reads with the real supabase-js (from npm) against a running
// `salaula serve`: list, info, exists and createSignedUrl on user-media
// within the caller's own folder, bad input answered in storage's own
// shape, and CORS preflights allowing every header supabase-js sends.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createClient } from '@supabase/supabase-js';
import { configOf, startServer } from './server.mjs';

let server;
let cfg;
before(async () => {
  server = await startServer({ SALAULA_RATE_UPLOADS: '1000/1m' });
  cfg = await configOf(server.url);
});
after(async () => {
  await server?.stop();
});

let counter = 0;
const PASSWORD = 'chitenge-lusaka-42';
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

async function person() {
  const supabase = createClient(cfg.url, cfg.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { data, error } = await supabase.auth.signUp({ email: `mwila.${Date.now()}.${counter++}@example.com`, password: PASSWORD });
  assert.equal(error, null);
  return { supabase, userId: data.user.id, bucket: supabase.storage.from('user-media') };
}

test("list, info and exists see a person's own photos", async () => {
  const { userId, bucket } = await person();
  for (const name of ['b-back.webp', 'a-front.webp', 'photos/c-side.webp']) {
    assert.equal((await bucket.upload(`${userId}/${name}`, new Blob([WEBP], { type: 'image/webp' }))).error, null);
  }

  const { data: files, error } = await bucket.list(userId);
  assert.equal(error, null);
  assert.deepEqual(files.map((f) => f.name), ['a-front.webp', 'b-back.webp', 'photos']);
  const front = files[0];
  assert.equal(front.metadata.size, WEBP.length);
  assert.equal(front.metadata.mimetype, 'image/webp');
  assert.ok(front.id && !Number.isNaN(Date.parse(front.updated_at)));
  assert.equal(files[2].id, null, 'a folder has no id');
  assert.deepEqual((await bucket.list(userId, { limit: 1, offset: 1 })).data.map((f) => f.name), ['b-back.webp']);
  assert.deepEqual((await bucket.list(userId, { sortBy: { column: 'name', order: 'desc' } })).data.map((f) => f.name), ['photos', 'b-back.webp', 'a-front.webp']);
  assert.deepEqual((await bucket.list(userId, { search: 'b-' })).data.map((f) => f.name), ['b-back.webp']);
  assert.deepEqual((await bucket.list(`${userId}/photos`)).data.map((f) => f.name), ['c-side.webp']);
  assert.deepEqual((await bucket.list('')).data.map((f) => f.name), [userId], 'the root shows only your folder');

  const { data: info, error: infoError } = await bucket.info(`${userId}/a-front.webp`);
  assert.equal(infoError, null);
  assert.equal(info.name, `${userId}/a-front.webp`);
  assert.equal(info.size, WEBP.length);
  assert.equal(info.contentType, 'image/webp');
  assert.equal(info.bucketId, 'user-media');
  assert.ok(!Number.isNaN(Date.parse(info.lastModified)));

  assert.deepEqual(await bucket.exists(`${userId}/a-front.webp`), { data: true, error: null });
  const missing = await bucket.exists(`${userId}/never-uploaded.webp`);
  assert.equal(missing.data, false);
  assert.equal(missing.error.statusCode, '404');
  const gone = await bucket.info(`${userId}/never-uploaded.webp`);
  assert.equal(gone.error.status, 404);
  assert.equal(gone.error.message, 'Object not found');
});

test('a signed URL serves its one file; another folder and bad input are refused', async () => {
  const { userId, bucket } = await person();
  const path = `${userId}/front.webp`;
  assert.equal((await bucket.upload(path, new Blob([WEBP], { type: 'image/webp' }))).error, null);

  const { data, error } = await bucket.createSignedUrl(path, 60);
  assert.equal(error, null);
  const res = await fetch(data.signedUrl);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/webp');
  assert.deepEqual(Buffer.from(await res.arrayBuffer()), WEBP);

  // The token names one file: another path with it is refused.
  const other = data.signedUrl.replace('front.webp', 'back.webp');
  const wrong = await fetch(other);
  assert.equal(wrong.status, 400);
  assert.match((await wrong.json()).message, /not valid for this file/);
  assert.equal((await fetch(data.signedUrl.replace(/token=[^&]+/, 'token=nonsense'))).status, 400);

  for (const [secs, why] of [[0, 'zero'], [-5, 'negative'], [1.5, 'fractional'], [10 ** 9, 'too long']]) {
    const { error: e } = await bucket.createSignedUrl(path, secs);
    assert.equal(e?.status, 400, why);
    assert.match(e.message, /expiresIn must be a whole number of seconds/, why);
  }
  assert.equal((await bucket.createSignedUrl(`${userId}/missing.webp`, 60)).error.status, 404);

  // Another person's folder: list, info, exists and sign are refused with the reason.
  const stranger = await person();
  for (const call of [
    () => stranger.bucket.list(userId),
    () => stranger.bucket.info(path),
    () => stranger.bucket.createSignedUrl(path, 60),
  ]) {
    const { error: e } = await call();
    assert.equal(e.status, 403);
    assert.match(e.message, /your own folder/);
  }
  await assert.rejects(stranger.bucket.exists(path), /your own folder/);

  // A visitor without a session, another bucket, bad list options.
  const visitor = createClient(cfg.url, cfg.anonKey, { auth: { persistSession: false } }).storage.from('user-media');
  assert.equal((await visitor.list(userId)).error.status, 401);
  assert.equal((await stranger.supabase.storage.from('avatars').list('')).error.message, 'Bucket not found');
  assert.match((await stranger.bucket.list('', { limit: 5000 })).error.message, /limit must be 1 to 1000/);
  assert.match((await stranger.bucket.list('', { sortBy: { column: 'size' } })).error.message, /sortBy.column/);
});

test('CORS preflights allow every header supabase-js sends', async () => {
  const headers = 'authorization, apikey, content-type, x-client-info, x-region, x-metadata, x-upsert, x-retry-count, prefer, traceparent';
  for (const path of ['/functions/v1/get-profile-me', '/storage/v1/object/user-media/a/b.webp', '/auth/v1/token', '/realtime/v1/api/broadcast']) {
    const res = await fetch(`${server.url}${path}`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.com', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': headers },
    });
    assert.equal(res.status, 204, path);
    const allowed = res.headers.get('access-control-allow-headers').split(/,\s*/);
    for (const h of headers.split(/,\s*/)) assert.ok(allowed.includes(h), `${path} allows ${h}`);
    assert.equal(res.headers.get('access-control-allow-origin'), '*', path);
  }
});
