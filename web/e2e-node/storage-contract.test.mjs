// The storage answers supabase-js reads as Supabase Storage's, with the real
// supabase-js from npm, on SQLite with media on disk and on PostgreSQL with
// media in a real S3 gateway: remove() answers the removed rows, info()
// the upload's id, a version and the uploader's metadata, HEAD reads as GET
// without a body, createSignedUrls() signs several at once, and the calls
// the server does not offer say so.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createClient } from '@supabase/supabase-js';
import { configOf, mediaBackends, startServer } from './server.mjs';

const PASSWORD = 'chitenge-lusaka-42';
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
let counter = 0;

const backends = mediaBackends('salaula_node_storage');

for (const backend of backends) {
  describe(backend.name, () => {
    let deps;
    let server;
    let cfg;
    before(async () => {
      deps = await backend.setup();
      server = await startServer({ SALAULA_RATE_UPLOADS: '1000/1m', ...deps.env });
      cfg = await configOf(server.url);
    });
    after(async () => {
      await server?.stop();
      await deps?.stop();
    });

    async function person() {
      const supabase = createClient(cfg.url, cfg.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
      const { data, error } = await supabase.auth.signUp({ email: `chanda.${Date.now()}.${counter++}@example.com`, password: PASSWORD });
      assert.equal(error, null);
      return { supabase, userId: data.user.id, token: data.session.access_token, bucket: supabase.storage.from('user-media') };
    }

    test("remove() answers the removed objects' rows, with an id that tells a file from a folder", async () => {
      const { userId, bucket } = await person();
      const path = `${userId}/photos/front.webp`;
      const { data: up } = await bucket.upload(path, new Blob([WEBP], { type: 'image/webp' }));
      const { data, error } = await bucket.remove([path, `${userId}/photos/never.webp`]);
      assert.equal(error, null);
      assert.equal(data.length, 1);
      const [row] = data;
      assert.equal(row.id, up.id);
      assert.equal(row.name, path);
      assert.equal(row.bucket_id, 'user-media');
      assert.equal(typeof row.version, 'string');
      for (const k of ['created_at', 'updated_at', 'last_accessed_at']) assert.ok(!Number.isNaN(Date.parse(row[k])), k);
      assert.equal(row.metadata.size, WEBP.length);
      assert.equal(row.metadata.mimetype, 'image/webp');
      assert.equal((await bucket.exists(path)).data, false);
    });

    test("info() answers the upload's id, a version and the metadata it was sent with", async () => {
      const { userId, bucket } = await person();
      const path = `${userId}/photos/side.webp`;
      const { data: up, error: upError } = await bucket.upload(path, new Blob([WEBP], { type: 'image/webp' }), {
        metadata: { side: 'left', order: 2 },
      });
      assert.equal(upError, null);
      const { data: info, error } = await bucket.info(path);
      assert.equal(error, null);
      assert.equal(info.id, up.id);
      assert.equal(typeof info.version, 'string');
      assert.ok(info.version.length > 0);
      assert.deepEqual(info.metadata, { side: 'left', order: 2 });

      // A raw body sends it as x-metadata; a replaced file is a new version.
      const { error: again } = await bucket.update(path, WEBP, { contentType: 'image/webp', metadata: { side: 'right' } });
      assert.equal(again, null);
      const { data: after } = await bucket.info(path);
      assert.deepEqual(after.metadata, { side: 'right' });
      assert.notEqual(after.version, info.version);

      // Metadata that cannot be kept is refused, and nothing is stored.
      const big = `${userId}/photos/big.webp`;
      const { error: tooBig } = await bucket.upload(big, new Blob([WEBP]), { metadata: { note: 'x'.repeat(2000) } });
      assert.equal(tooBig.status, 400);
      assert.match(tooBig.message, /metadata must be at most 1 KB/);
      assert.equal((await bucket.exists(big)).data, false);
    });

    test('HEAD of an own file answers as GET without the body, public and authenticated', async () => {
      const { userId, token, bucket } = await person();
      const path = `${userId}/photos/head.webp`;
      await bucket.upload(path, new Blob([WEBP], { type: 'image/webp' }));
      const auth = { apikey: cfg.anonKey, Authorization: `Bearer ${token}` };
      for (const url of [`${cfg.url}/storage/v1/object/user-media/${path}`, bucket.getPublicUrl(path).data.publicUrl]) {
        const res = await fetch(url, { method: 'HEAD', headers: auth });
        assert.equal(res.status, 200, url);
        assert.equal(res.headers.get('content-type'), 'image/webp');
        assert.equal(Number(res.headers.get('content-length')), WEBP.length);
        assert.equal((await res.arrayBuffer()).byteLength, 0);
      }
      const missing = await fetch(`${cfg.url}/storage/v1/object/user-media/${userId}/photos/none.webp`, { method: 'HEAD', headers: auth });
      assert.equal(missing.status, 404);
      // download() reads the own file through the authenticated path.
      const { data: blob, error } = await bucket.download(path);
      assert.equal(error, null);
      assert.deepEqual(Buffer.from(await blob.arrayBuffer()), WEBP);
    });

    test('createSignedUrls() signs several files of the own folder, and says which it cannot', async () => {
      const { userId, bucket } = await person();
      const stranger = await person();
      const mine = [`${userId}/a.webp`, `${userId}/b.webp`];
      for (const p of mine) await bucket.upload(p, new Blob([WEBP], { type: 'image/webp' }));
      await stranger.bucket.upload(`${stranger.userId}/c.webp`, new Blob([WEBP], { type: 'image/webp' }));

      const { data, error } = await bucket.createSignedUrls([...mine, `${userId}/none.webp`, `${stranger.userId}/c.webp`], 60);
      assert.equal(error, null);
      assert.deepEqual(data.map((d) => d.path), [...mine, `${userId}/none.webp`, `${stranger.userId}/c.webp`]);
      for (const d of data.slice(0, 2)) {
        assert.equal(d.error, null);
        const res = await fetch(d.signedUrl);
        assert.equal(res.status, 200);
        assert.deepEqual(Buffer.from(await res.arrayBuffer()), WEBP);
      }
      for (const d of data.slice(2)) {
        assert.equal(d.signedUrl, null);
        assert.equal(d.error, 'Either the object does not exist or you do not have access to it');
      }
      const { error: bad } = await bucket.createSignedUrls(mine, 0);
      assert.equal(bad.status, 400);
      assert.match(bad.message, /expiresIn must be a whole number of seconds/);
    });

    test('calls the server does not offer say so, not "Bucket not found"', async () => {
      const { userId, bucket } = await person();
      await bucket.upload(`${userId}/m.webp`, new Blob([WEBP], { type: 'image/webp' }));
      for (const [call, what] of [
        [() => bucket.createSignedUploadUrl(`${userId}/n.webp`), /Uploading through a signed URL is not offered/],
        [() => bucket.move(`${userId}/m.webp`, `${userId}/n.webp`), /Moving a file is not offered/],
        [() => bucket.copy(`${userId}/m.webp`, `${userId}/n.webp`), /Copying a file is not offered/],
        [() => bucket.listV2({ prefix: userId }), /list-v2 is not offered/],
      ]) {
        const { error } = await call();
        assert.equal(error.status, 501);
        assert.match(error.message, what);
      }
    });
  });
}
