import { createClient } from '@supabase/supabase-js';
import { vi } from 'vitest';
import { setSupabaseForTests } from '../lib/supabase';

/** A call the fake server received. */
export interface FakeCall {
  name: string;
  body: Record<string, unknown>;
  headers: Headers;
}

/** An answer of the fake server: status and JSON body, or a network failure. */
export type FakeAnswer = { status: number; body: unknown } | 'network-error';

/**
 * fakeFunctions points the app's real supabase-js client at a fake fetch that
 * records each function call and answers with answer(call). It returns the
 * recorded calls and a way to hold answers until released.
 */
export function fakeFunctions(answer: (call: FakeCall) => FakeAnswer = () => ({ status: 200, body: { success: true } })) {
  const calls: FakeCall[] = [];
  let gate: Promise<void> = Promise.resolve();
  let release = () => {};
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const call: FakeCall = {
      name: url.pathname.replace('/functions/v1/', ''),
      body: JSON.parse(String(init?.body ?? '{}')),
      headers: new Headers(init?.headers),
    };
    calls.push(call);
    await gate;
    const a = answer(call);
    if (a === 'network-error') throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'Content-Type': 'application/json' } });
  });
  const client = createClient('http://salaula.test', 'anon-key', {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { fetch: fetch as unknown as typeof globalThis.fetch },
  });
  setSupabaseForTests(client, { url: 'http://salaula.test', anonKey: 'anon-key', supportEmail: 'help@salaula.test' });
  return {
    calls,
    /** hold makes the next answers wait until the returned function is called. */
    hold() {
      gate = new Promise((r) => (release = r));
      return () => release();
    },
  };
}
