// Sized images through supabase-js's own transform option, as Supabase
// Storage serves them, on SQLite with media on disk and on PostgreSQL with
// media in a real S3 gateway: getPublicUrl(path, { transform }),
// createSignedUrl(path, expiresIn, { transform }) and download(path,
// { transform }) read a WebP of the asked size (JPEG for a client that does
// not ask for WebP), a thumbnail of a phone-sized photo is a few KB, and a
// second read with the ETag is a 304.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import { createClient } from '@supabase/supabase-js';
import { configOf, mediaBackends, startServer } from './server.mjs';

const PASSWORD = 'chitenge-lusaka-42';
const ACCEPT_WEBP = { Accept: 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8' };
let counter = 0;

/** A PNG chunk: length, type, data, CRC of type and data. */
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A 1200×1600 photo-like PNG: light from above, a round figure, sensor noise. */
function phonePhoto() {
  const w = 1200;
  const h = 1600;
  const raw = Buffer.alloc((w * 3 + 1) * h);
  let seed = 42;
  for (let y = 0; y < h; y++) {
    const row = y * (w * 3 + 1);
    for (let x = 0; x < w; x++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const n = ((seed >>> 16) % 13) - 6;
      const inside = (x - 600) ** 2 + (y - 900) ** 2 < 420 ** 2;
      const rgb = inside ? [150 + ((x >> 3) % 30), 60, 70] : [90 + (100 * y) / h, 140 + (60 * x) / w, 230 - (150 * y) / h];
      for (let c = 0; c < 3; c++) raw[row + 1 + x * 3 + c] = Math.max(0, Math.min(255, Math.round(rgb[c] + n)));
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The width and height a WebP file declares (simple lossy, lossless or extended). */
function webpSize(b) {
  assert.equal(b.toString('ascii', 0, 4), 'RIFF');
  assert.equal(b.toString('ascii', 8, 12), 'WEBP');
  switch (b.toString('ascii', 12, 16)) {
    case 'VP8 ':
      return [b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff];
    case 'VP8L': {
      const bits = b.readUInt32LE(21);
      return [(bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1];
    }
    case 'VP8X':
      return [b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1];
  }
  throw new Error(`not a WebP image I can read: ${b.toString('ascii', 12, 16)}`);
}

const backends = mediaBackends('salaula_node_render');

const PHOTO = phonePhoto();

for (const backend of backends) {
  describe(backend.name, () => {
    let deps;
    let server;
    let cfg;
    let bucket;
    let path;
    before(async () => {
      deps = await backend.setup();
      server = await startServer({ SALAULA_RATE_UPLOADS: '1000/1m', ...deps.env });
      cfg = await configOf(server.url);
      const supabase = createClient(cfg.url, cfg.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
      const { data, error } = await supabase.auth.signUp({ email: `mutale.${Date.now()}.${counter++}@example.com`, password: PASSWORD });
      assert.equal(error, null);
      bucket = supabase.storage.from('user-media');
      path = `${data.user.id}/photos/1700000000-me.png`;
      const up = await bucket.upload(path, new Blob([PHOTO], { type: 'image/png' }));
      assert.equal(up.error, null);
    });
    after(async () => {
      await server?.stop();
      await deps?.stop();
    });

    test('getPublicUrl with a transform reads a small WebP thumbnail, then a 304 with its ETag', async () => {
      const { publicUrl } = bucket.getPublicUrl(path, { transform: { width: 192, height: 192, resize: 'cover' } }).data;
      assert.match(publicUrl, /\/storage\/v1\/render\/image\/public\/user-media\/.+\?width=192&height=192&resize=cover$/);
      const res = await fetch(publicUrl, { headers: ACCEPT_WEBP });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'image/webp');
      const body = Buffer.from(await res.arrayBuffer());
      assert.deepEqual(webpSize(body), [192, 192]);
      assert.ok(body.length <= 30 * 1024, `a thumbnail of a ${PHOTO.length >> 10} KB photo is ${body.length >> 10} KB`);
      const again = await fetch(publicUrl, { headers: { ...ACCEPT_WEBP, 'If-None-Match': res.headers.get('etag') } });
      assert.equal(again.status, 304);
    });

    test('createSignedUrl with a transform signs a sized image', async () => {
      const { data, error } = await bucket.createSignedUrl(path, 60, { transform: { width: 120, height: 120 } });
      assert.equal(error, null);
      assert.match(data.signedUrl, /\/storage\/v1\/render\/image\/sign\/user-media\/.+\?token=/);
      const res = await fetch(data.signedUrl, { headers: ACCEPT_WEBP });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'image/webp');
      assert.deepEqual(webpSize(Buffer.from(await res.arrayBuffer())), [120, 120]);
    });

    test('download with a transform reads the sized image, as JPEG for a client that does not ask for WebP', async () => {
      const { data, error } = await bucket.download(path, { transform: { width: 96 } });
      assert.equal(error, null);
      assert.equal(data.type, 'image/jpeg');
      assert.ok(data.size > 0 && data.size < 30 * 1024, `${data.size} bytes`);
    });

    test('a bad transform is refused, naming it', async () => {
      const { publicUrl } = bucket.getPublicUrl(path, { transform: { width: 100000 } }).data;
      const res = await fetch(publicUrl);
      assert.equal(res.status, 400);
      const body = await res.json();
      assert.equal(body.statusCode, '400');
      assert.match(body.message, /^width must be/);
    });
  });
}
