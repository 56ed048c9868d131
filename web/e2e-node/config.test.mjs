// The real supabase-js, configured from /config.json, reaches the server.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createClient, FunctionsHttpError } from '@supabase/supabase-js';
import { configOf, startServer } from './server.mjs';

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

test('config.json gives the API URL and an anon key that supabase-js accepts', async () => {
  const cfg = await configOf(server.url);
  assert.equal(cfg.url, server.url);
  const payload = JSON.parse(Buffer.from(cfg.anonKey.split('.')[1], 'base64url').toString());
  assert.equal(payload.role, 'anon');
  const supabase = createClient(cfg.url, cfg.anonKey, { auth: { persistSession: false } });
  const { data, error } = await supabase.auth.getSession();
  assert.equal(error, null);
  assert.equal(data.session, null);
});

test('a function that needs a session answers 401 to the anon key', async () => {
  const cfg = await configOf(server.url);
  const supabase = createClient(cfg.url, cfg.anonKey, { auth: { persistSession: false } });
  const { error } = await supabase.functions.invoke('get-profile-me');
  assert.ok(error instanceof FunctionsHttpError, `error = ${error}`);
  assert.equal(error.context.status, 401);
  const body = await error.context.json();
  assert.match(body.error, /signed-in/);
});
