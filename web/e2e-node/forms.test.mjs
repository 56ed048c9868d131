// The public forms through the real supabase-js functions.invoke, with the
// anon key from /config.json: the answers and error bodies the app reads.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { createClient, FunctionsHttpError } from '@supabase/supabase-js';
import { binary, configOf, startServer } from './server.mjs';

let server;
let supabase;
before(async () => {
  server = await startServer({ SALAULA_RATE_FORMS: '6/1m' });
  const cfg = await configOf(server.url);
  supabase = createClient(cfg.url, cfg.anonKey, { auth: { persistSession: false } });
});
after(async () => {
  await server?.stop();
});

test('contact-form-submit accepts a message and rejects a bad one with field messages', async () => {
  const good = { firstName: 'Chanda', lastName: 'Mwale', email: 'chanda@example.com', phoneNumber: '', subject: 'other', message: 'Hello from Kalingalinga!' };
  const ok = await supabase.functions.invoke('contact-form-submit', { body: good });
  assert.equal(ok.error, null);
  assert.equal(ok.data.success, true);

  const bad = await supabase.functions.invoke('contact-form-submit', { body: { ...good, firstName: '  ', message: 'short' } });
  assert.ok(bad.error instanceof FunctionsHttpError);
  assert.equal(bad.error.context.status, 400);
  const body = await bad.error.context.json();
  assert.deepEqual(body.fields, { firstName: 'First name is required', message: 'Message should be at least 10 characters' });
  assert.equal(typeof body.error, 'string');

  const csv = execFileSync(binary, ['admin', 'export', 'messages', '--data', server.dataDir], { encoding: 'utf8' });
  assert.match(csv, /chanda@example\.com,,other,Hello from Kalingalinga!/);
});

test('waitlist-signup joins once, and a string body is refused as not JSON', async () => {
  const body = { email: ' Mutale@Example.com', programName: 'Upcycling Initiative' };
  for (let i = 0; i < 2; i++) {
    const { data, error } = await supabase.functions.invoke('waitlist-signup', { body });
    assert.equal(error, null);
    assert.equal(data.success, true);
  }
  const csv = execFileSync(binary, ['admin', 'export', 'waitlist', '--data', server.dataDir], { encoding: 'utf8' });
  assert.equal(csv.split('\n').filter((l) => l.includes('mutale@example.com')).length, 1);

  const text = await supabase.functions.invoke('waitlist-signup', { body: 'mutale@example.com' });
  assert.equal(text.error.context.status, 415);
  assert.equal((await text.error.context.json()).error, 'Content-Type must be application/json');
});

test('the forms answer 429 with a message once a client sends too many', async () => {
  let last;
  for (let i = 0; i < 8; i++) {
    last = await supabase.functions.invoke('waitlist-signup', { body: { email: `x${i}@example.com`, programName: 'Upcycling Initiative' } });
  }
  assert.equal(last.error.context.status, 429);
  assert.equal((await last.error.context.json()).error, 'Too many requests. Please wait a few minutes and try again.');
});
