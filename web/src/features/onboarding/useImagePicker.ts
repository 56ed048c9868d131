import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { isImageFile, sizedImageUrl } from '../../lib/images';
import { uploadImage, UploadError } from './api';

/** The side, in CSS pixels, of a preview (.ob-thumb img in onboarding.css). */
const PREVIEW_PX = 96;

/** Where a picked image is on its way to the server. */
export type UploadState = 'waiting' | 'uploading' | 'done' | 'failed';

/** One picked image: the file, its preview URL, and its upload state. */
export interface PickedImage {
  id: string;
  file: File;
  previewUrl: string;
  state: UploadState;
  /** Public URL once uploaded; a later retry reuses it. */
  url?: string;
  /** While uploading: the share of the (shrunk) file sent, 0 to 1. */
  progress?: number;
  /** When failed: why, in words a person can act on. */
  error?: string;
}

/** What useImagePicker gives a form. */
export interface ImagePicker {
  items: PickedImage[];
  max: number;
  full: boolean;
  /** Adds image files up to max; returns how many were dropped (not images, or over max). */
  add: (files: Iterable<File>) => number;
  remove: (id: string) => void;
  /**
   * preload shows images already saved (their public URLs) as uploaded, to
   * keep or remove, each previewed by a thumbnail sized for its place.
   */
  preload: (urls: string[]) => void;
  /**
   * uploadAll uploads each image not yet uploaded, one after the other (a
   * slow phone connection does better with one at a time), and returns all
   * public URLs in order. pathFor gets the final file name and a timestamp
   * unique within the picker. A failed image does not stop the others: each
   * is tried, the failed ones are marked (with their reason) for retry, and
   * then the first failure is thrown.
   */
  uploadAll: (pathFor: (fileName: string, timestamp: number) => string) => Promise<string[]>;
  /** retry uploads one failed image again (to a new path of the last uploadAll's pattern). */
  retry: (id: string) => Promise<void>;
  /**
   * blocker says why the form cannot be sent yet (an image failed or is
   * still uploading), naming images as itemName 1, 2, ...; undefined when
   * nothing stands in the way.
   */
  blocker: (itemName: string) => string | undefined;
}

let nextId = 0;

/**
 * useImagePicker keeps up to max picked images with object-URL previews
 * (revoked on removal and unmount) and their upload states.
 */
export function useImagePicker(max: number): ImagePicker {
  const [items, setItems] = useState<PickedImage[]>([]);
  const itemsRef = useRef(items);
  useLayoutEffect(() => {
    itemsRef.current = items;
  });

  useEffect(
    () => () => {
      for (const it of itemsRef.current) URL.revokeObjectURL(it.previewUrl);
    },
    [],
  );

  const update = useCallback((id: string, patch: Partial<PickedImage>) => {
    itemsRef.current = itemsRef.current.map((it) => (it.id === id ? { ...it, ...patch } : it));
    setItems(itemsRef.current);
  }, []);

  const add = useCallback(
    (files: Iterable<File>) => {
      const all = Array.from(files);
      const images = all.filter(isImageFile).slice(0, Math.max(0, max - itemsRef.current.length));
      const added = images.map((file) => ({
        id: `img-${++nextId}`,
        file,
        previewUrl: URL.createObjectURL(file),
        state: 'waiting' as const,
      }));
      itemsRef.current = [...itemsRef.current, ...added];
      setItems(itemsRef.current);
      return all.length - added.length;
    },
    [max],
  );

  const remove = useCallback((id: string) => {
    const gone = itemsRef.current.find((it) => it.id === id);
    if (gone) URL.revokeObjectURL(gone.previewUrl);
    itemsRef.current = itemsRef.current.filter((it) => it.id !== id);
    setItems(itemsRef.current);
  }, []);

  const preload = useCallback(
    (urls: string[]) => {
      const saved = urls.slice(0, max).map((url) => ({
        id: `img-${++nextId}`,
        file: new File([], decodeURIComponent(url.split('/').pop() ?? 'image')),
        previewUrl: sizedImageUrl(url, PREVIEW_PX),
        state: 'done' as const,
        url,
      }));
      itemsRef.current = saved;
      setItems(saved);
    },
    [max],
  );

  const pathForRef = useRef<((fileName: string, timestamp: number) => string) | null>(null);
  const lastTimestamp = useRef(0);
  const aborts = useRef(new Set<AbortController>());
  useEffect(
    () => () => {
      for (const a of aborts.current) a.abort();
    },
    [],
  );

  /** uploadOne uploads one image, following its progress; it returns its URL or throws. */
  const uploadOne = useCallback(
    async (it: PickedImage, pathFor: (fileName: string, timestamp: number) => string) => {
      // Unique within the picker, also across retries, so a retry never lands on a path already taken.
      lastTimestamp.current = Math.max(Date.now(), lastTimestamp.current + 1);
      const timestamp = lastTimestamp.current;
      const abort = new AbortController();
      aborts.current.add(abort);
      update(it.id, { state: 'uploading', progress: 0, error: undefined });
      try {
        const url = await uploadImage(it.file, (name) => pathFor(name, timestamp), {
          signal: abort.signal,
          onProgress: ({ loaded, total }) => update(it.id, { progress: total > 0 ? loaded / total : 0 }),
        });
        update(it.id, { state: 'done', url, progress: 1 });
        return url;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        update(it.id, { state: 'failed', progress: undefined, error: message });
        throw err instanceof UploadError ? err : new UploadError(message);
      } finally {
        aborts.current.delete(abort);
      }
    },
    [update],
  );

  const uploadAll = useCallback(
    async (pathFor: (fileName: string, timestamp: number) => string) => {
      pathForRef.current = pathFor;
      const urls: string[] = [];
      let firstError: unknown;
      for (const it of itemsRef.current) {
        if (it.url) {
          urls.push(it.url);
          continue;
        }
        try {
          urls.push(await uploadOne(it, pathFor));
        } catch (err) {
          firstError ??= err;
        }
      }
      if (firstError !== undefined) throw firstError;
      return urls;
    },
    [uploadOne],
  );

  const retry = useCallback(
    async (id: string) => {
      const it = itemsRef.current.find((x) => x.id === id);
      const pathFor = pathForRef.current;
      if (!it || it.state !== 'failed' || !pathFor) return;
      try {
        await uploadOne(it, pathFor);
      } catch {
        // Shown on the image itself (state failed, with its reason).
      }
    },
    [uploadOne],
  );

  const blocker = useCallback((itemName: string) => {
    const all = itemsRef.current;
    const failed = all.findIndex((it) => it.state === 'failed');
    if (failed >= 0) return `${itemName} ${failed + 1} did not upload. Retry it or remove it, then submit again.`;
    const uploading = all.findIndex((it) => it.state === 'uploading');
    if (uploading >= 0) return `${itemName} ${uploading + 1} is still uploading. Wait until it has finished, then submit again.`;
    return undefined;
  }, []);

  return { items, max, full: items.length >= max, add, remove, preload, uploadAll, retry, blocker };
}
