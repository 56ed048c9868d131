/**
 * In-browser image helpers: checking a picked file, shrinking a phone photo
 * before upload, making a file name safe for a storage path, and asking the
 * server for a stored photo sized for where it is shown.
 */

/**
 * Longest side, in pixels, of a shrunk photo. The server refuses images
 * larger than this (media.MaxImageSide in internal/media/image.go): change
 * both together.
 */
export const SHRINK_MAX_SIDE_PX = 1600;
/** Encoder quality of a shrunk photo (JPEG or WebP). */
export const SHRINK_QUALITY = 0.82;
/** A file already this small and within the size limit is sent as it is. */
export const SHRINK_SKIP_BELOW_BYTES = 300 * 1024;

/** The picture types the server stores (internal/media/image.go); others are re-encoded first. */
export const STORED_IMAGE_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/webp'];
/**
 * The largest file the server takes by default (SALAULA_MAX_UPLOAD_BYTES,
 * internal/config/config.go): a file still larger after shrinking is refused
 * before it is sent.
 */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** isImageFile is true for files the browser reports as images. */
export function isImageFile(file: File): boolean {
  return file.type.startsWith('image/');
}

/**
 * safeFileName keeps letters, digits, dot, dash and underscore, replaces
 * everything else with '-', and caps the length, so a phone's
 * "IMG 2024 (1).jpg" becomes "IMG-2024-1-.jpg" and no name can carry '/',
 * '..' or control characters into a storage path.
 */
export function safeFileName(name: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.-]+/, '');
  const capped = cleaned.length > 80 ? cleaned.slice(cleaned.length - 80).replace(/^[.-]+/, '') : cleaned;
  return capped || 'image';
}

/** Replaces a file name's extension (or adds one). */
function withExtension(name: string, ext: string): string {
  const dot = name.lastIndexOf('.');
  return `${dot > 0 ? name.slice(0, dot) : name}.${ext}`;
}

/** Encodes a canvas to a blob of the given type; null when the browser cannot. */
async function encode(
  canvas: OffscreenCanvas | HTMLCanvasElement,
  type: string,
  quality: number,
): Promise<Blob | null> {
  if ('convertToBlob' in canvas) {
    return canvas.convertToBlob({ type, quality }).catch(() => null);
  }
  return new Promise((resolve) => canvas.toBlob((b) => resolve(b), type, quality));
}

/** Options of shrinkImage. */
export interface ShrinkOptions {
  maxSide?: number;
  quality?: number;
  /**
   * For pictures shown on the public pages (the About page's portraits): a
   * picture that is not WebP is always re-encoded as WebP when the browser
   * can write it, even when small or when WebP would not be smaller, so every
   * image a visitor downloads is in a modern format.
   */
  webp?: boolean;
}

/** What measureAndShrink gives: the file to send and, when the browser could read it, its size in pixels. */
export interface PreparedImage {
  file: File;
  width?: number;
  height?: number;
}

/**
 * shrinkImage returns a photo whose longest side is at most about 1600 px,
 * re-encoded as WebP (or JPEG where the browser cannot write WebP) at
 * quality 0.82, so a 5 MB phone photo becomes a few hundred KB. A picture
 * of a kind the server does not store (GIF; HEIC where the browser can read
 * it) is always re-encoded. A file that is already small, that the browser
 * cannot decode (HEIC on most browsers), or that would only grow is returned
 * unchanged: the server checks it.
 */
export async function shrinkImage(file: File, options: ShrinkOptions = {}): Promise<File> {
  return (await measureAndShrink(file, options)).file;
}

/**
 * measureAndShrink is shrinkImage that also tells the returned file's size
 * in pixels (none when the browser could not decode the picture), from the
 * one decoding it does anyway.
 */
export async function measureAndShrink(file: File, options: ShrinkOptions = {}): Promise<PreparedImage> {
  const maxSide = options.maxSide ?? SHRINK_MAX_SIDE_PX;
  const quality = options.quality ?? SHRINK_QUALITY;
  const toWebp = options.webp === true && file.type !== 'image/webp';
  if (typeof createImageBitmap !== 'function' || !isImageFile(file)) return { file };
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return { file };
  }
  const original = { file, width: bitmap.width, height: bitmap.height };
  try {
    const longest = Math.max(bitmap.width, bitmap.height);
    const scale = longest > maxSide ? maxSide / longest : 1;
    // A kind the server does not store (GIF, or HEIC where the browser reads it) is always re-encoded.
    const foreign = !STORED_IMAGE_TYPES.includes(file.type);
    if (scale === 1 && file.size <= SHRINK_SKIP_BELOW_BYTES && !toWebp && !foreign) return original;
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas =
      typeof OffscreenCanvas === 'function'
        ? new OffscreenCanvas(width, height)
        : Object.assign(document.createElement('canvas'), { width, height });
    const ctx = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
    if (!ctx) return original;
    ctx.drawImage(bitmap, 0, 0, width, height);
    let blob = await encode(canvas, 'image/webp', quality);
    if (!blob || blob.type !== 'image/webp') blob = await encode(canvas, 'image/jpeg', quality);
    if (!blob || (blob.type !== 'image/jpeg' && blob.type !== 'image/webp')) return original;
    if (scale === 1 && blob.size >= file.size && !foreign && !(toWebp && blob.type === 'image/webp')) return original;
    const ext = blob.type === 'image/webp' ? 'webp' : 'jpg';
    const shrunk = new File([blob], withExtension(file.name, ext), { type: blob.type, lastModified: file.lastModified });
    return { file: shrunk, width, height };
  } catch {
    return original;
  } finally {
    bitmap.close();
  }
}

/**
 * Device pixels per CSS pixel of a sized image: sharp on the 2x screens of
 * most phones, a fraction of the stored photo's bytes.
 */
export const SIZED_IMAGE_DENSITY = 2;

/** supabase-js's transform option (TransformOptions of storage-js) for a sized image. */
export interface ImageTransform {
  width: number;
  height: number;
  resize: 'cover';
}

/**
 * thumbTransform is the transform of a thumbnail shown width × height CSS
 * pixels, cropped to fill it: getPublicUrl(path, { transform }) then reads
 * a WebP of twice the pixels (192 × 192 for a 96 px thumbnail, a few KB)
 * instead of the stored photo (up to 1600 px, hundreds of KB).
 */
export function thumbTransform(width: number, height = width): ImageTransform {
  return { width: width * SIZED_IMAGE_DENSITY, height: height * SIZED_IMAGE_DENSITY, resize: 'cover' };
}

/** Where the server serves stored files, and sized images of them. */
const PUBLIC_OBJECT_PATH = '/storage/v1/object/public/';
const PUBLIC_RENDER_PATH = '/storage/v1/render/image/public/';

/**
 * sizedImageUrl turns the public URL of a stored photo (as a profile keeps
 * it, absolute or from /storage/v1 on) into the URL of a thumbnail of it
 * shown width × height CSS pixels: the URL supabase-js's
 * getPublicUrl(path, { transform: thumbTransform(width, height) }) gives.
 * Any other URL (a blob: preview, another site's) comes back unchanged.
 */
export function sizedImageUrl(url: string, width: number, height = width): string {
  const at = url.indexOf(PUBLIC_OBJECT_PATH);
  if (at < 0 || url.includes('?')) return url;
  const t = thumbTransform(width, height);
  const query = new URLSearchParams({ width: String(t.width), height: String(t.height), resize: t.resize });
  return `${url.slice(0, at)}${PUBLIC_RENDER_PATH}${url.slice(at + PUBLIC_OBJECT_PATH.length)}?${query.toString()}`;
}

/** ImageRefused is a picked file that cannot be sent; its message names the file and says what to do. */
export class ImageRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageRefused';
  }
}

const CHOOSE_PICTURE = 'choose a JPEG, PNG or WebP picture.';
/** Extensions of pictures a phone may give without a type. */
const PICTURE_EXTENSIONS = /\.(jpe?g|png|webp|gif|heic|heif|avif|bmp)$/i;

/** quoted is a file's name as the messages show it: “notes.pdf”. */
function quoted(name: string): string {
  return `\u201c${name}\u201d`;
}

/** megabytes writes a size as "12.4 MB" (or "10 MB"). */
function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

/**
 * pickedImageProblem checks a file the moment it is picked, before it is
 * read: a file that is not a picture, or an empty one, gets a message that
 * names it ('“notes.pdf” is not a photo: choose a JPEG, PNG or WebP
 * picture.'); undefined when it may go on.
 */
export function pickedImageProblem(file: File): string | undefined {
  const picture = file.type ? isImageFile(file) : PICTURE_EXTENSIONS.test(file.name);
  if (!picture) return `${quoted(file.name)} is not a photo: ${CHOOSE_PICTURE}`;
  if (file.size === 0) return `${quoted(file.name)} is empty: ${CHOOSE_PICTURE}`;
  return undefined;
}

/**
 * preparedImageProblem checks what measureAndShrink made of a picked file
 * (named name) before it is sent, as the server would: a picture the
 * browser tried and failed to read (damaged, or HEIC where the browser
 * cannot convert it), one still over 1600 pixels a side or of a kind the
 * server does not store (shrinking failed), or one over MAX_UPLOAD_BYTES.
 * triedDecoding says whether the browser could try (createImageBitmap);
 * without it the file goes as it is and the server judges it.
 */
export function preparedImageProblem(name: string, prepared: PreparedImage, triedDecoding: boolean): string | undefined {
  const { file, width, height } = prepared;
  const stored = STORED_IMAGE_TYPES.includes(file.type);
  if (triedDecoding && isImageFile(file) && width === undefined) {
    return stored
      ? `${quoted(name)} could not be read as a picture (the file may be damaged): choose another photo.`
      : `${quoted(name)} is a kind of picture this browser cannot convert: ${CHOOSE_PICTURE}`;
  }
  if (width !== undefined && height !== undefined) {
    if (Math.max(width, height) > SHRINK_MAX_SIDE_PX) {
      return `${quoted(name)} is too large (${width} \u00d7 ${height} pixels) and could not be made smaller here: choose a photo at most ${SHRINK_MAX_SIDE_PX} pixels wide or high.`;
    }
    if (!stored) return `${quoted(name)} could not be converted here: ${CHOOSE_PICTURE}`;
  }
  if (file.size > MAX_UPLOAD_BYTES) {
    return `${quoted(name)} is too large (${megabytes(file.size)}): choose a photo of at most ${megabytes(MAX_UPLOAD_BYTES)}.`;
  }
  return undefined;
}

/**
 * prepareImage readies a picked photo for upload: shrunk (measureAndShrink),
 * then checked (preparedImageProblem). It throws ImageRefused with a
 * message naming the file when the photo cannot be sent.
 */
export async function prepareImage(file: File): Promise<File> {
  const prepared = await measureAndShrink(file);
  const problem = preparedImageProblem(file.name, prepared, typeof createImageBitmap === 'function');
  if (problem) throw new ImageRefused(problem);
  return prepared.file;
}
