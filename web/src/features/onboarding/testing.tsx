/**
 * Test helpers of the onboarding pages (unit tests only): a fake
 * supabase-js client (session, storage), a fake fetch for the functions,
 * and a render with the auth provider and a router.
 */
import type { ReactElement } from 'react';
import { configure, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterEach, beforeEach, vi } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { AuthProvider } from '../auth/AuthProvider';

// The machine running the tests may be busy: give the uploads and the router time.
configure({ asyncUtilTimeout: 5000 });

export const TEST_CONFIG = { url: 'http://salaula.test', anonKey: 'anon-key-123', supportEmail: 'help@salaula.test' };
export const USER_ID = '5b8f3a2e-1111-4222-8333-944455556666';
export const ACCESS_TOKEN = 'access-token-abc';
export const SESSION = { access_token: ACCESS_TOKEN, user: { id: USER_ID, email: 'a@b.zm' } };

/** One upload the fake storage received. */
export interface FakeUpload {
  bucket: string;
  path: string;
  file: File;
  options: Record<string, unknown>;
}

/** What the fake storage answers an upload: no error, or a refusal (status 400 unless given). */
type FakeUploadAnswer = { data: { path: string }; error: null | { message: string; status?: number } };

/**
 * fakeSupabase installs a fake client, and a fake XMLHttpRequest for the
 * uploads (lib/upload.ts sends them as supabase-js would, with progress);
 * the returned mocks let a test steer and inspect them. Each upload reports
 * half of its bytes sent, then the whole, then the answer of the upload mock.
 */
export function fakeSupabase() {
  const uploads: FakeUpload[] = [];
  const getSession = vi.fn(async () => ({ data: { session: SESSION as unknown }, error: null as null | { message: string } }));
  const upload = vi.fn(async (bucket: string, path: string, file: File, options: Record<string, unknown>): Promise<FakeUploadAnswer> => {
    uploads.push({ bucket, path, file, options });
    return { data: { path }, error: null };
  });
  const storagePrefix = `${TEST_CONFIG.url}/storage/v1/object/`;
  class FakeStorageXHR {
    status = 0;
    responseText = '';
    upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    ontimeout: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private url = '';
    private headers: Record<string, string> = {};
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    abort() {
      this.onabort?.();
    }
    send(form: FormData) {
      const [bucket, ...rest] = this.url.slice(storagePrefix.length).split('/');
      const file = form.get('') as File;
      const options = { cacheControl: form.get('cacheControl'), upsert: this.headers['x-upsert'] === 'true', headers: this.headers };
      void (async () => {
        this.upload.onprogress?.({ loaded: file.size / 2, total: file.size, lengthComputable: true });
        const answer = await upload(bucket, rest.join('/'), file, options);
        this.upload.onprogress?.({ loaded: file.size, total: file.size, lengthComputable: true });
        if (answer.error) {
          this.status = answer.error.status ?? 400;
          this.responseText = JSON.stringify({ statusCode: String(this.status), error: 'Refused', message: answer.error.message });
        } else {
          this.status = 200;
          this.responseText = JSON.stringify({ Key: `${bucket}/${rest.join('/')}`, Id: `id-${uploads.length}` });
        }
        this.onload?.();
      })();
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeStorageXHR);
  const client = {
    auth: {
      getSession,
      onAuthStateChange: vi.fn(() => ({ data: { subscription: { unsubscribe() {} } } })),
      signOut: vi.fn(async () => ({ error: null })),
    },
  };
  setSupabaseForTests(client as unknown as SupabaseClient, TEST_CONFIG);
  return { client, uploads, getSession, upload };
}

/** One call the fake fetch received. */
export interface FakeCall {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/**
 * fakeFetch answers every call with the next of responses (the last one
 * repeats); a response is [status, body] or an Error to throw.
 */
export function fakeFetch(...responses: Array<[number, unknown] | Error>) {
  const calls: FakeCall[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({
      url,
      headers: init.headers as Record<string, string>,
      body: JSON.parse(String(init.body)) as Record<string, unknown>,
    });
    const next = responses[Math.min(calls.length - 1, responses.length - 1)] ?? [200, {}];
    if (next instanceof Error) throw next;
    const [status, body] = next;
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(text, { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{pathname + search}</p>;
}

/** renderAt renders a page at its route, with /thanks and /sign_up stand-ins. */
export function renderAt(route: string, path: string, page: ReactElement) {
  const user = userEvent.setup({ delay: null });
  render(
    <AuthProvider>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={page} />
          <Route path="/thanks" element={<Where />} />
          <Route path="/sign_up" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </AuthProvider>,
  );
  return user;
}

/** where: the path the stand-in page shows after a navigation. */
export async function where(): Promise<string> {
  return (await screen.findByTestId('where', {}, { timeout: 10_000 })).textContent ?? '';
}

/** A small image file. */
export function imageFile(name: string, type = 'image/png'): File {
  return new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])], name, { type });
}

/** stubObjectUrls replaces URL.createObjectURL/revokeObjectURL, which jsdom lacks. */
export function stubObjectUrls() {
  let n = 0;
  const created = vi.fn(() => `blob:preview-${++n}`);
  const revoked = vi.fn();
  URL.createObjectURL = created as typeof URL.createObjectURL;
  URL.revokeObjectURL = revoked as typeof URL.revokeObjectURL;
  return { created, revoked };
}

/** fill types a value into a labelled field in one go (pasting is much faster than typing in jsdom). */
export async function fill(user: ReturnType<typeof userEvent.setup>, label: string, value: string) {
  const field = await screen.findByLabelText(label);
  await user.click(field);
  await user.paste(value);
}

/**
 * stubPageGlobals stubs, before each test of the calling suite, the object
 * URLs jsdom lacks and window.alert, and restores everything after; the
 * returned object's alert is the current test's alert mock.
 */
export function stubPageGlobals() {
  const current = { alert: vi.fn(), objectUrls: stubObjectUrls() };
  beforeEach(() => {
    current.objectUrls = stubObjectUrls();
    current.alert = vi.fn();
    vi.stubGlobal('alert', current.alert);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  return current;
}
