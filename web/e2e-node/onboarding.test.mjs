// The real supabase-js (from npm) against a running `salaula serve`: upload
// to user-media, getPublicUrl, fetch the image back, the onboarding calls
// (spec calls 8 to 10) and get-profile-me.
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

/** A 1x1 PNG and a 1x1 lossless WebP. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

let counter = 0;
/** A signed-in client of a fresh account, with its user id and access token. */
async function signedIn() {
  const supabase = createClient(cfg.url, cfg.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const email = `chipo.${Date.now()}.${counter++}@example.com`;
  const { data, error } = await supabase.auth.signUp({ email, password: 'chitenge-lusaka-42' });
  assert.equal(error, null);
  return { supabase, userId: data.user.id, token: data.session.access_token };
}

/** Calls an onboarding function the way the app does (spec call 9): fetch with three headers. */
function callFunction(name, token, body) {
  return fetch(`${cfg.url}/functions/v1/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, apikey: cfg.anonKey },
    body: JSON.stringify(body),
  });
}

test('upload, getPublicUrl and fetch the image back', async () => {
  const { supabase, userId } = await signedIn();
  const bucket = supabase.storage.from('user-media');
  const path = `${userId}/photos/${Date.now()}-front view.png`;
  const { data, error } = await bucket.upload(path, new Blob([PNG], { type: 'image/png' }));
  assert.equal(error, null);
  assert.equal(data.path, path);
  assert.equal(data.fullPath, `user-media/${path}`);
  assert.match(data.id, /^[0-9a-f-]{36}$/);

  const { data: pub } = bucket.getPublicUrl(path);
  assert.ok(pub.publicUrl.startsWith(`${cfg.url}/storage/v1/object/public/user-media/${userId}/photos/`));
  const res = await fetch(pub.publicUrl);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.ok(res.headers.get('etag'));
  assert.deepEqual(Buffer.from(await res.arrayBuffer()), PNG);

  // The same path again: 409 Duplicate, unless upsert.
  const dup = await bucket.upload(path, new Blob([WEBP], { type: 'image/webp' }));
  assert.equal(dup.error?.status, 409);
  assert.equal(dup.error?.statusCode, '409');
  assert.equal(dup.error?.message, 'The resource already exists');
  const up = await bucket.upload(path, new Blob([WEBP], { type: 'image/webp' }), { upsert: true });
  assert.equal(up.error, null);
  const again = await fetch(pub.publicUrl);
  assert.equal(again.headers.get('content-type'), 'image/webp');

  // remove() deletes it; the public URL then answers 404.
  const removed = await bucket.remove([path]);
  assert.equal(removed.error, null);
  assert.deepEqual(removed.data.map((o) => o.name), [path]);
  assert.equal((await fetch(pub.publicUrl)).status, 404);
});

test('uploads are refused outside the own folder, without a session, and for non-images', async () => {
  const { supabase } = await signedIn();
  const other = await signedIn();
  const bucket = supabase.storage.from('user-media');
  const theirs = await bucket.upload(`${other.userId}/photos/x.png`, new Blob([PNG], { type: 'image/png' }));
  assert.equal(theirs.error?.status, 403);

  const anon = createClient(cfg.url, cfg.anonKey, { auth: { persistSession: false } });
  const anonymous = await anon.storage.from('user-media').upload(`${other.userId}/photos/y.png`, new Blob([PNG]));
  assert.equal(anonymous.error?.status, 401);

  const own = (await supabase.auth.getUser()).data.user.id;
  const script = new Blob(['<script>alert(1)</script>'], { type: 'image/png' });
  const fake = await bucket.upload(`${own}/photos/cat.png`, script);
  assert.equal(fake.error?.status, 415);
  assert.match(fake.error.message, /Only JPEG, PNG and WebP images/);
});

test('the combined form: both onboarding calls, then get-profile-me shows role and URLs', async () => {
  const { supabase, userId, token } = await signedIn();
  const bucket = supabase.storage.from('user-media');
  const photoPath = `${userId}/photos/${Date.now()}-me.png`;
  const logoPath = `${userId}/logos/${Date.now()}-logo.webp`;
  assert.equal((await bucket.upload(photoPath, new Blob([PNG]))).error, null);
  assert.equal((await bucket.upload(logoPath, new Blob([WEBP]))).error, null);
  const photoUrl = bucket.getPublicUrl(photoPath).data.publicUrl;
  const logoUrl = bucket.getPublicUrl(logoPath).data.publicUrl;

  const before = await supabase.functions.invoke('get-profile-me');
  assert.equal(before.error, null);
  assert.equal(before.data.role, null);

  const common = {
    userId,
    role: 'buyer_and_seller',
    full_name: 'Chipo Mwale',
    location: 'Kabulonga, Lusaka',
    age: 24,
    phone_number: '+260 97 123 4567',
  };
  const buyer = await callFunction('onboard-new-user', token, {
    ...common,
    gender: 'Female',
    height: '165 cm',
    waist_size: '28',
    style_description: 'Bright colours and vintage denim',
    clothing_aesthetics: ['STREET WEAR', 'DENIM WEAR'],
    inspiration: '',
    wants_clearance_program: true,
    body_photo_urls: [photoUrl],
    profile_pic_url: photoUrl,
  });
  assert.equal(buyer.status, 200, await buyer.clone().text());
  const seller = await callFunction('onboard-seller', token, {
    ...common,
    gender: 'female',
    business_name: 'Chipo Thrift',
    registration_number: null,
    business_mode: 'Social Media Sale',
    logo_urls: [logoUrl],
  });
  assert.equal(seller.status, 200, await seller.clone().text());

  const { data, error } = await supabase.functions.invoke('get-profile-me');
  assert.equal(error, null);
  assert.equal(data.role, 'buyer_and_seller');
  assert.equal(data.user_id, userId);
  assert.equal(data.phone_number, '+260971234567');
  assert.deepEqual(data.body_photo_urls, [photoUrl]);
  assert.equal(data.profile_pic_url, photoUrl);
  assert.deepEqual(data.logo_urls, [logoUrl]);
  assert.equal(data.business_name, 'Chipo Thrift');
  assert.equal(data.height, '165 cm');
});

test('onboarding errors reach the app as the spec describes', async () => {
  const { userId, token } = await signedIn();
  const other = await signedIn();
  const missing = await callFunction('onboard-seller', token, { userId, role: 'seller', logo_urls: [] });
  assert.equal(missing.status, 400);
  const body = await missing.json();
  assert.equal(body.error, 'Full name is required');
  assert.equal(body.fields.logo_urls, 'Please upload at least one logo or brand image');
  assert.equal(body.fields.business_mode, 'Please select your business mode');

  const noSession = await fetch(`${cfg.url}/functions/v1/onboard-new-user`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: cfg.anonKey },
    body: JSON.stringify({ userId }),
  });
  assert.equal(noSession.status, 401);
  assert.equal((await noSession.json()).error, 'Could not get user session. Please log in again.');

  const notYours = await callFunction('onboard-new-user', token, { userId: other.userId });
  assert.equal(notYours.status, 403);
});

test('invoke with a method the function does not take answers 405 with Allow', async () => {
  const { supabase } = await signedIn();
  const { data, error } = await supabase.functions.invoke('get-profile-me', { method: 'GET' });
  assert.equal(data, null);
  assert.equal(error?.name, 'FunctionsHttpError');
  assert.equal(error.context.status, 405);
  assert.equal(error.context.headers.get('allow'), 'POST');
  assert.deepEqual(await error.context.json(), { error: 'get-profile-me takes POST, not GET' });
  // The method it takes still answers.
  const me = await supabase.functions.invoke('get-profile-me', { method: 'POST' });
  assert.equal(me.error, null);
  assert.equal(me.data.role, null);
});

test('storage answers what it does not offer in its own shape: exists() is false, not thrown', async () => {
  const { supabase, userId } = await signedIn();
  const bucket = supabase.storage.from('user-media');
  const { data, error } = await bucket.exists(`${userId}/photos/never-uploaded.png`);
  assert.equal(data, false);
  assert.equal(error?.status, 404);
  const res = await fetch(`${cfg.url}/storage/v1/bucket`, { headers: { apikey: cfg.anonKey } });
  assert.equal(res.status, 404);
  const body = await res.json();
  assert.equal(body.statusCode, '404');
  assert.equal(body.error, 'not_found');
  assert.match(body.message, /^No storage route for GET \/storage\/v1\/bucket/);
});
