import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { publicObjectUrl, StorageUploadError, uploadObject, type UploadProgress, type UploadRequest } from './upload';

/** FakeXHR records what the module sends and lets a test play the network's part. */
class FakeXHR {
  static all: FakeXHR[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  aborted = false;
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXHR.all.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  /** The browser reports bytes of the body sent. */
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true });
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }
  fail() {
    this.onerror?.();
  }
}

const photo = () => new File([new Uint8Array(1000)], 'front.webp', { type: 'image/webp' });

function request(overrides: Partial<UploadRequest> = {}): UploadRequest {
  return {
    baseUrl: 'http://127.0.0.1:8080/',
    anonKey: 'anon-key',
    accessToken: 'user-token',
    bucket: 'user-media',
    path: 'u1/1700000000000-front.webp',
    file: photo(),
    ...overrides,
  };
}

beforeEach(() => {
  FakeXHR.all = [];
  vi.stubGlobal('XMLHttpRequest', FakeXHR);
});
afterEach(() => vi.unstubAllGlobals());

describe('uploadObject', () => {
  it('sends what supabase-js sends: POST to the object URL, bearer token, apikey, x-upsert false, cacheControl and the file', async () => {
    const done = uploadObject(request());
    const xhr = FakeXHR.all[0];
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('http://127.0.0.1:8080/storage/v1/object/user-media/u1/1700000000000-front.webp');
    expect(xhr.headers).toEqual({ Authorization: 'Bearer user-token', apikey: 'anon-key', 'x-upsert': 'false' });
    expect(xhr.body?.get('cacheControl')).toBe('3600');
    const sent = xhr.body?.get('') as File;
    expect(sent.name).toBe('front.webp');
    expect(sent.size).toBe(1000);
    xhr.answer(200, { Key: 'user-media/u1/1700000000000-front.webp', Id: 'obj-1' });
    await expect(done).resolves.toEqual({ key: 'user-media/u1/1700000000000-front.webp', id: 'obj-1' });
  });

  it('reports progress in bytes of the file, from 0 to the whole file', async () => {
    const seen: UploadProgress[] = [];
    const done = uploadObject(request({ onProgress: (p) => seen.push(p) }));
    const xhr = FakeXHR.all[0];
    // The multipart body is a little larger than the file: progress is scaled to the file.
    xhr.progress(300, 1200);
    xhr.progress(900, 1200);
    xhr.answer(200, { Key: 'user-media/u1/x', Id: 'i' });
    await done;
    expect(seen).toEqual([
      { loaded: 0, total: 1000 },
      { loaded: 250, total: 1000 },
      { loaded: 750, total: 1000 },
      { loaded: 1000, total: 1000 },
    ]);
  });

  it('a refused upload rejects with the status and a clear message; a retry of the same file then succeeds', async () => {
    const file = photo();
    const first = uploadObject(request({ file }));
    FakeXHR.all[0].answer(413, { statusCode: '413', error: 'Payload too large', message: 'The file is too large: at most 10 MB per image' });
    const err = await first.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageUploadError);
    expect(err).toMatchObject({ kind: 'http', status: 413, message: 'This photo is too large: The file is too large: at most 10 MB per image' });

    const retry = uploadObject(request({ file }));
    expect(FakeXHR.all).toHaveLength(2);
    expect((FakeXHR.all[1].body?.get('') as File).size).toBe(1000);
    FakeXHR.all[1].answer(200, { Key: 'user-media/u1/1700000000000-front.webp', Id: 'obj-2' });
    await expect(retry).resolves.toMatchObject({ id: 'obj-2' });
  });

  it.each([
    [415, { message: 'Only JPEG, PNG and WebP images can be uploaded' }, 'This file is not a photo we can take: Only JPEG, PNG and WebP images can be uploaded'],
    [401, { message: 'You must be signed in to upload or remove files: token expired' }, 'Your session has ended. Please sign in again, then retry.'],
    [500, '<html>Bad gateway</html>', 'The server could not store this photo (status 500). Please retry.'],
    [400, 'not json', 'The photo was refused (status 400).'],
  ])('status %i gives a clear message', async (status, body, message) => {
    const done = uploadObject(request());
    FakeXHR.all[0].answer(status, body);
    await expect(done).rejects.toMatchObject({ kind: 'http', status, message });
  });

  it('a lost connection rejects as a network failure', async () => {
    const done = uploadObject(request());
    FakeXHR.all[0].progress(100, 1200);
    FakeXHR.all[0].fail();
    await expect(done).rejects.toMatchObject({ kind: 'network', status: 0, message: expect.stringContaining('connection') });
  });

  it('aborting stops the request and rejects as aborted; an already aborted signal sends nothing', async () => {
    const ctrl = new AbortController();
    const done = uploadObject(request({ signal: ctrl.signal }));
    ctrl.abort();
    expect(FakeXHR.all[0].aborted).toBe(true);
    await expect(done).rejects.toMatchObject({ kind: 'aborted' });

    await expect(uploadObject(request({ signal: ctrl.signal }))).rejects.toMatchObject({ kind: 'aborted' });
    expect(FakeXHR.all).toHaveLength(1);
  });

  it('upsert sends x-upsert true', async () => {
    const done = uploadObject(request({ upsert: true }));
    expect(FakeXHR.all[0].headers['x-upsert']).toBe('true');
    FakeXHR.all[0].answer(200, { Key: 'k', Id: 'i' });
    await done;
  });
});

describe('publicObjectUrl', () => {
  it('is built as supabase-js builds it', () => {
    expect(publicObjectUrl('http://h:1/', 'user-media', '/u1//logos/1-a b.png')).toBe('http://h:1/storage/v1/object/public/user-media/u1/logos/1-a%20b.png');
  });
});
