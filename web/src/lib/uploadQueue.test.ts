import { afterEach, describe, expect, it, vi } from 'vitest';
import { pickedImageProblem, prepareImage } from './images';
import { Slots, UploadQueue, type SendOptions, type UploadQueueOptions } from './uploadQueue';

/** A picture file of the given size (its bytes are never decoded). */
function photo(name: string, bytes = 1000, type = 'image/jpeg'): File {
  return new File([new Uint8Array(bytes)], name, { type });
}

/** A retryable failure, as a cut connection gives. */
class CutOff extends Error {
  readonly retryable = true;
}

/** One call of the fake send: the file, its options, and how to end it. */
interface Sent {
  file: File;
  options: SendOptions;
  resolve: (url: string) => void;
  reject: (err: Error) => void;
}

/**
 * setup makes a queue with its own slots (two uploads at once, one readying),
 * a send that waits until the test ends each call, pauses that return at
 * once (recording their length), and counted previews.
 */
function setup(options: Partial<UploadQueueOptions> = {}) {
  const sent: Sent[] = [];
  const pauses: number[] = [];
  const revoked: string[] = [];
  let previews = 0;
  const queue = new UploadQueue({
    max: 3,
    check: pickedImageProblem,
    send: (file, opts) =>
      new Promise<string>((resolve, reject) => {
        sent.push({ file, options: opts, resolve, reject });
        opts.signal.addEventListener('abort', () => reject(new Error('stopped')));
      }),
    retryable: (err) => err instanceof CutOff,
    retryDelaysMs: [100, 200, 400],
    slots: new Slots(2),
    prepareSlots: new Slots(1),
    wait: async (ms) => {
      pauses.push(ms);
    },
    preview: { create: (f) => `blob:${f.name}-${++previews}`, revoke: (url) => revoked.push(url) },
    ...options,
  });
  const states = () => queue.snapshot().items.map((it) => `${it.file.name}:${it.state}`);
  return { queue, sent, pauses, revoked, states };
}

describe('UploadQueue', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('starts uploading at once when files are picked, at most two at a time, the next when one ends', async () => {
    const { queue, sent, states } = setup();
    queue.add([photo('front.jpg'), photo('side.jpg'), photo('back.jpg')]);
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(states()).toEqual(['front.jpg:uploading', 'side.jpg:uploading', 'back.jpg:waiting']);
    expect(sent.map((s) => s.file.name)).toEqual(['front.jpg', 'side.jpg']);

    sent[0].options.onProgress(0.4);
    expect(queue.snapshot().items[0].progress).toBe(0.4);

    sent[1].resolve('https://x/side.jpg');
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    expect(states()).toEqual(['front.jpg:uploading', 'side.jpg:done', 'back.jpg:uploading']);
    expect(queue.snapshot().items[1]).toMatchObject({ url: 'https://x/side.jpg', progress: 1 });
  });

  it('shares the two uploads between the queues of one page', async () => {
    const slots = new Slots(2);
    const photos = setup({ slots });
    const logos = setup({ slots });
    photos.queue.add([photo('a.jpg'), photo('b.jpg')]);
    await vi.waitFor(() => expect(photos.sent).toHaveLength(2));
    logos.queue.add([photo('logo.png', 10, 'image/png')]);
    await vi.waitFor(() => expect(logos.states()).toEqual(['logo.png:waiting']));
    photos.sent[0].resolve('u');
    await vi.waitFor(() => expect(logos.sent).toHaveLength(1));
  });

  it('refuses a file that is not a photo at once, naming it, and sends nothing for it', async () => {
    const { queue, sent, states } = setup();
    const left = queue.add([new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }), photo('front.jpg')]);
    expect(left).toBe(0);
    expect(queue.snapshot().refused).toEqual(['\u201cnotes.pdf\u201d is not a photo: choose a JPEG, PNG or WebP picture.']);
    expect(states()).toEqual(['front.jpg:checking']);
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].file.name).toBe('front.jpg');
    // The next pick replaces the messages of the last one.
    queue.add([photo('back.jpg')]);
    expect(queue.snapshot().refused).toEqual([]);
  });

  it('refuses, naming it, a photo too large to shrink here, before anything is sent', async () => {
    // The browser reads the photo but cannot draw it smaller (no 2D context).
    vi.stubGlobal('createImageBitmap', vi.fn(async () => ({ width: 4000, height: 3000, close() {} })));
    vi.stubGlobal(
      'OffscreenCanvas',
      class {
        getContext() {
          return null;
        }
      },
    );
    const { queue, sent, revoked } = setup({ prepare: prepareImage });
    queue.add([photo('huge.jpg', 5_000_000)]);
    await vi.waitFor(() => expect(queue.snapshot().items).toEqual([]));
    expect(queue.snapshot().refused).toEqual([
      '\u201chuge.jpg\u201d is too large (4000 \u00d7 3000 pixels) and could not be made smaller here: choose a photo at most 1600 pixels wide or high.',
    ]);
    expect(revoked).toEqual(['blob:huge.jpg-1']);
    expect(sent).toEqual([]);
  });

  it('sends the shrunk file, readied one at a time', async () => {
    let readying = 0;
    let most = 0;
    const { queue, sent } = setup({
      prepare: async (file) => {
        most = Math.max(most, ++readying);
        await new Promise((r) => setTimeout(r, 5));
        readying--;
        return new File([new Uint8Array(10)], file.name.replace(/\.jpg$/, '.webp'), { type: 'image/webp' });
      },
    });
    queue.add([photo('a.jpg'), photo('b.jpg')]);
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent.map((s) => [s.file.name, s.file.size])).toEqual([
      ['a.webp', 10],
      ['b.webp', 10],
    ]);
    expect(most).toBe(1);
  });

  it('tries an upload cut off by the network again after growing pauses, and it ends uploaded', async () => {
    const { queue, sent, pauses, states } = setup();
    queue.add([photo('front.jpg')]);
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    sent[0].reject(new CutOff('The connection was lost during the upload.'));
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    sent[1].reject(new CutOff('The connection was lost during the upload.'));
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    expect(pauses).toEqual([100, 200]);
    // The same readied file each time.
    expect(sent[2].file).toBe(sent[0].file);
    sent[2].resolve('https://x/front.jpg');
    await vi.waitFor(() => expect(states()).toEqual(['front.jpg:done']));
    expect(queue.snapshot().items[0]).toMatchObject({ url: 'https://x/front.jpg', error: undefined, retry: undefined });
  });

  it('says which try comes next while it pauses', async () => {
    let go: () => void = () => {};
    const { queue, sent } = setup({ wait: () => new Promise<void>((r) => (go = r)) });
    queue.add([photo('front.jpg')]);
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    sent[0].reject(new CutOff('The connection was lost during the upload.'));
    await vi.waitFor(() =>
      expect(queue.snapshot().items[0]).toMatchObject({
        state: 'retrying',
        error: 'The connection was lost during the upload.',
        retry: { next: 1, of: 3 },
      }),
    );
    go();
    await vi.waitFor(() => expect(sent).toHaveLength(2));
  });

  it('fails after the last automatic retry; Try again sends the same file again without readying it', async () => {
    const prepare = vi.fn(async (file: File) => file);
    const { queue, sent, pauses, states } = setup({ prepare });
    queue.add([photo('front.jpg')]);
    for (let i = 0; i < 4; i++) {
      await vi.waitFor(() => expect(sent).toHaveLength(i + 1));
      sent[i].reject(new CutOff('The connection was lost during the upload.'));
    }
    await vi.waitFor(() => expect(states()).toEqual(['front.jpg:failed']));
    expect(pauses).toEqual([100, 200, 400]);
    expect(queue.snapshot().items[0].error).toBe('The connection was lost during the upload.');

    queue.retry(queue.snapshot().items[0].id);
    await vi.waitFor(() => expect(sent).toHaveLength(5));
    sent[4].resolve('https://x/front.jpg');
    await vi.waitFor(() => expect(states()).toEqual(['front.jpg:done']));
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it('does not try a refusal of the server again by itself', async () => {
    const { queue, sent, pauses, states } = setup();
    queue.add([photo('front.jpg')]);
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    sent[0].reject(new Error('This photo is too large: at most 10 MB per image'));
    await vi.waitFor(() => expect(states()).toEqual(['front.jpg:failed']));
    expect(pauses).toEqual([]);
    expect(sent).toHaveLength(1);
  });

  it('stops the upload of a removed photo, frees its place, and starts the next', async () => {
    const { queue, sent, revoked, states } = setup();
    queue.add([photo('a.jpg'), photo('b.jpg'), photo('c.jpg')]);
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    queue.remove(queue.snapshot().items[0].id);
    expect(sent[0].options.signal.aborted).toBe(true);
    expect(revoked).toEqual(['blob:a.jpg-1']);
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    expect(states()).toEqual(['b.jpg:uploading', 'c.jpg:uploading']);
  });

  it('never sends a photo removed while it waits, nor one removed during a pause', async () => {
    let go: () => void = () => {};
    const { queue, sent, states } = setup({ wait: () => new Promise<void>((r) => (go = r)) });
    queue.add([photo('a.jpg'), photo('b.jpg'), photo('c.jpg')]);
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    queue.remove(queue.snapshot().items[2].id);
    sent[0].reject(new CutOff('cut'));
    await vi.waitFor(() => expect(states()).toEqual(['a.jpg:retrying', 'b.jpg:uploading']));
    queue.remove(queue.snapshot().items[0].id);
    go();
    sent[1].resolve('u');
    await vi.waitFor(() => expect(states()).toEqual(['b.jpg:done']));
    expect(sent.map((s) => s.file.name)).toEqual(['a.jpg', 'b.jpg']);
  });

  it('holds at most max photos and says how many were left out', () => {
    const { queue, states } = setup();
    expect(queue.add([photo('a.jpg'), photo('b.jpg')])).toBe(0);
    expect(queue.add([photo('c.jpg'), photo('d.jpg'), photo('e.jpg')])).toBe(2);
    expect(states().map((s) => s.split(':')[0])).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
  });

  it('until resolves once nothing is left to upload', async () => {
    const { queue, sent } = setup();
    queue.add([photo('a.jpg'), photo('b.jpg')]);
    const seen = queue
      .until((s) => s.items.every((it) => it.state === 'done'))
      .then(() => queue.snapshot().items.map((it) => `${it.state} ${it.url}`));
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    sent[0].resolve('u1');
    sent[1].resolve('u2');
    expect(await seen).toEqual(['done u1', 'done u2']);
  });
});
