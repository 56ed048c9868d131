import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '@supabase/supabase-js';
import {
  pickedImageProblem,
  preparedImageProblem,
  safeFileName,
  shrinkImage,
  sizedImageUrl,
  thumbTransform,
  SHRINK_MAX_SIDE_PX,
  SHRINK_QUALITY,
} from './images';

/** A file of the given size (its bytes are never decoded: createImageBitmap is faked). */
function photo(name: string, bytes: number, type = 'image/jpeg'): File {
  return new File([new Uint8Array(bytes)], name, { type });
}

/** Fakes the browser's decoder and canvas; writes is what each encode produced. */
function fakeCanvas(size: { width: number; height: number }, opts: { webp?: boolean; outBytes?: number } = {}) {
  const drawn: Array<{ width: number; height: number }> = [];
  const encodes: Array<{ type: string; quality: number }> = [];
  const close = vi.fn();
  vi.stubGlobal('createImageBitmap', vi.fn(async () => ({ ...size, close })));
  vi.stubGlobal(
    'OffscreenCanvas',
    class {
      constructor(
        public width: number,
        public height: number,
      ) {}
      getContext() {
        return { drawImage: (_b: unknown, _x: number, _y: number, w: number, h: number) => drawn.push({ width: w, height: h }) };
      }
      async convertToBlob({ type, quality }: { type: string; quality: number }) {
        encodes.push({ type, quality });
        const written = type === 'image/webp' && opts.webp === false ? 'image/png' : type;
        return new Blob([new Uint8Array(opts.outBytes ?? 250_000)], { type: written });
      }
    },
  );
  return { drawn, encodes, close };
}

describe('shrinkImage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shrinks a 5 MB phone photo to 1600 px on its longest side, as WebP at quality 0.82', async () => {
    const { drawn, encodes, close } = fakeCanvas({ width: 4000, height: 3000 });
    const out = await shrinkImage(photo('IMG_2024.jpg', 5_000_000));
    expect(drawn).toEqual([{ width: SHRINK_MAX_SIDE_PX, height: 1200 }]);
    expect(encodes).toEqual([{ type: 'image/webp', quality: SHRINK_QUALITY }]);
    expect(out.type).toBe('image/webp');
    expect(out.name).toBe('IMG_2024.webp');
    expect(out.size).toBe(250_000);
    expect(close).toHaveBeenCalled();
  });

  it('writes JPEG where the browser cannot write WebP, and keeps a portrait photo upright in size', async () => {
    const { drawn, encodes } = fakeCanvas({ width: 3024, height: 4032 }, { webp: false });
    const out = await shrinkImage(photo('portrait.heic.jpg', 3_000_000));
    expect(drawn).toEqual([{ width: 1200, height: 1600 }]);
    expect(encodes.map((e) => e.type)).toEqual(['image/webp', 'image/jpeg']);
    expect(out.type).toBe('image/jpeg');
    expect(out.name).toBe('portrait.heic.jpg');
  });

  it('sends a small photo as it is', async () => {
    const { encodes } = fakeCanvas({ width: 800, height: 600 });
    const file = photo('small.jpg', 90_000);
    expect(await shrinkImage(file)).toBe(file);
    expect(encodes).toEqual([]);
  });

  it('re-encodes a small PNG as WebP when asked for a picture of the public pages, even if WebP is larger', async () => {
    const { encodes } = fakeCanvas({ width: 192, height: 192 }, { outBytes: 12_000 });
    const out = await shrinkImage(photo('portrait.png', 9_000, 'image/png'), { webp: true });
    expect(encodes.map((e) => e.type)).toEqual(['image/webp']);
    expect(out.type).toBe('image/webp');
    expect(out.name).toBe('portrait.webp');
    // A WebP is sent as it is, and without the option a small PNG too.
    const webp = photo('portrait.webp', 9_000, 'image/webp');
    expect(await shrinkImage(webp, { webp: true })).toBe(webp);
    const png = photo('icon.png', 9_000, 'image/png');
    expect(await shrinkImage(png)).toBe(png);
  });

  it('keeps the original when re-encoding a photo that needs no resizing would not make it smaller', async () => {
    fakeCanvas({ width: 1200, height: 900 }, { outBytes: 900_000 });
    const file = photo('already-small.jpg', 800_000);
    expect(await shrinkImage(file)).toBe(file);
  });

  it('passes through what the browser cannot decode, and files that are not images', async () => {
    vi.stubGlobal('createImageBitmap', vi.fn(async () => Promise.reject(new Error('cannot decode'))));
    const heic = photo('phone.heic', 2_000_000, 'image/heic');
    expect(await shrinkImage(heic)).toBe(heic);
    const text = photo('notes.txt', 10, 'text/plain');
    expect(await shrinkImage(text)).toBe(text);
  });

  it('always re-encodes a kind of picture the server does not store, even when small', async () => {
    const { encodes } = fakeCanvas({ width: 300, height: 300 }, { outBytes: 20_000 });
    const out = await shrinkImage(photo('wave.gif', 9_000, 'image/gif'));
    expect(encodes.map((e) => e.type)).toEqual(['image/webp']);
    expect(out).toMatchObject({ name: 'wave.webp', type: 'image/webp' });
  });

  it('passes the file through in a browser without createImageBitmap', async () => {
    vi.stubGlobal('createImageBitmap', undefined);
    const file = photo('a.jpg', 5_000_000);
    expect(await shrinkImage(file)).toBe(file);
  });
});

describe('pickedImageProblem', () => {
  it.each([
    [new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }), '\u201cnotes.pdf\u201d is not a photo: choose a JPEG, PNG or WebP picture.'],
    [new File(['x'], 'song.mp3', { type: '' }), '\u201csong.mp3\u201d is not a photo: choose a JPEG, PNG or WebP picture.'],
    [new File([], 'blank.jpg', { type: 'image/jpeg' }), '\u201cblank.jpg\u201d is empty: choose a JPEG, PNG or WebP picture.'],
  ])('refuses %s, naming it', (file, message) => {
    expect(pickedImageProblem(file)).toBe(message);
  });

  it('takes pictures, also a phone photo given without a type', () => {
    expect(pickedImageProblem(photo('front.jpg', 10))).toBeUndefined();
    expect(pickedImageProblem(photo('IMG_0001.HEIC', 10, ''))).toBeUndefined();
  });
});

describe('preparedImageProblem', () => {
  it.each([
    ['a damaged JPEG', photo('broken.jpg', 10), {}, '\u201cbroken.jpg\u201d could not be read as a picture (the file may be damaged): choose another photo.'],
    ['a HEIC this browser cannot read', photo('IMG_1.heic', 10, 'image/heic'), {}, '\u201cIMG_1.heic\u201d is a kind of picture this browser cannot convert: choose a JPEG, PNG or WebP picture.'],
    ['a photo still too large on a side', photo('big.png', 10, 'image/png'), { width: 2000, height: 1000 }, '\u201cbig.png\u201d is too large (2000 \u00d7 1000 pixels) and could not be made smaller here: choose a photo at most 1600 pixels wide or high.'],
    ['a photo over 10 MB', photo('heavy.png', 11 * 1024 * 1024, 'image/png'), { width: 1600, height: 1600 }, '\u201cheavy.png\u201d is too large (11 MB): choose a photo of at most 10 MB.'],
  ])('refuses %s, naming it', (_what, file, size, message) => {
    expect(preparedImageProblem(file.name, { file, ...size }, true)).toBe(message);
  });

  it('lets a readied photo go, and leaves a photo the browser could not try to the server', () => {
    expect(preparedImageProblem('a.jpg', { file: photo('a.webp', 10, 'image/webp'), width: 1600, height: 1200 }, true)).toBeUndefined();
    expect(preparedImageProblem('b.jpg', { file: photo('b.jpg', 10) }, false)).toBeUndefined();
  });
});

describe('safeFileName', () => {
  it.each([
    ['IMG 2024 (1).jpg', 'IMG-2024-1-.jpg'],
    ['../../etc/passwd', 'etc-passwd'],
    ['photo..png', 'photo.png'],
    ['Chitenge_é.webp', 'Chitenge_e.webp'],
    ['\u0000\u0007.png', 'png'],
    ['', 'image'],
    ['///', 'image'],
  ])('%j becomes %j', (name, want) => {
    expect(safeFileName(name)).toBe(want);
  });

  it('caps long names and keeps their extension', () => {
    const name = safeFileName(`${'a'.repeat(300)}.jpg`);
    expect(name.length).toBeLessThanOrEqual(80);
    expect(name.endsWith('.jpg')).toBe(true);
  });
});

describe('sizedImageUrl', () => {
  const bucket = createClient('http://h:1', 'anon-key', { auth: { persistSession: false } }).storage.from('user-media');
  const path = 'u1/photos/1700000000-my photo.jpg';
  const stored = bucket.getPublicUrl(path).data.publicUrl;

  it("is supabase-js's own URL of the photo with a transform twice the CSS size", () => {
    expect(thumbTransform(96)).toEqual({ width: 192, height: 192, resize: 'cover' });
    expect(sizedImageUrl(stored, 96)).toBe(bucket.getPublicUrl(path, { transform: thumbTransform(96) }).data.publicUrl);
    expect(sizedImageUrl(stored, 96)).toBe(
      'http://h:1/storage/v1/render/image/public/user-media/u1/photos/1700000000-my%20photo.jpg?width=192&height=192&resize=cover',
    );
    expect(sizedImageUrl('/storage/v1/object/public/user-media/u1/a.png', 120, 60)).toBe(
      '/storage/v1/render/image/public/user-media/u1/a.png?width=240&height=120&resize=cover',
    );
  });

  it('leaves any other URL as it is', () => {
    for (const url of ['blob:http://h:1/5e1c', 'https://elsewhere.example/a.jpg', `${stored}?download=`]) {
      expect(sizedImageUrl(url, 96)).toBe(url);
    }
  });
});
