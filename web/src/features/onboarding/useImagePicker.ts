import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { pickedImageProblem, prepareImage, sizedImageUrl } from '../../lib/images';
import { isPending, UploadQueue, type UploadItem, type UploadState } from '../../lib/uploadQueue';
import { sendImage, uniqueTimestamp, UploadError } from './api';

/** The side, in CSS pixels, of a preview (.ob-thumb img in onboarding.css). */
const PREVIEW_PX = 96;

export type { UploadState };

/** One picked image: the file, its preview URL, and its upload state (lib/uploadQueue.ts). */
export type PickedImage = UploadItem;

/** What useImagePicker gives a form. */
export interface ImagePicker {
  items: readonly PickedImage[];
  max: number;
  full: boolean;
  /** The messages of the files refused at the last pick (or while readied), each naming its file. */
  refused: readonly string[];
  /** How many images are not yet uploaded nor failed. */
  pending: number;
  /**
   * Adds picked files up to max, checking each at once; the accepted ones
   * start uploading. Returns how many photos were left out for want of room.
   */
  add: (files: Iterable<File>) => number;
  /** Removes an image, stopping its upload. */
  remove: (id: string) => void;
  /** Sends a failed image again, without picking it again. */
  retry: (id: string) => void;
  /**
   * preload shows images already saved (their public URLs) as uploaded, to
   * keep or remove, each previewed by a thumbnail sized for its place.
   */
  preload: (urls: string[]) => void;
  /**
   * blocker says why the form cannot be sent (an image failed), naming the
   * image as itemName N and giving its reason; undefined when none failed.
   */
  blocker: (itemName: string) => string | undefined;
  /**
   * uploaded waits for the images still uploading and returns every public
   * URL in order; it throws UploadError (the blocker's message) as soon as
   * an image has failed.
   */
  uploaded: (itemName: string) => Promise<string[]>;
}

/** Where a picture goes: photoPath or logoPath of api.ts. */
export type PathFor = (userId: string, fileName: string, timestamp: number) => string;

/** blockerOf: the message for the first failed item, if any. */
function blockerOf(items: readonly PickedImage[], itemName: string): string | undefined {
  const i = items.findIndex((it) => it.state === 'failed');
  if (i < 0) return undefined;
  const reason = (items[i].error ?? 'The upload failed.').replace(/([^.!?])$/, '$1.');
  return `${itemName} ${i + 1} (${items[i].file.name}) did not upload: ${reason} Try again or remove it, then send the form again.`;
}

/**
 * useImagePicker keeps up to max picked images (an UploadQueue): each is
 * checked when picked, shrunk, and uploaded at once to the path pathFor
 * gives, at most two at a time on the page, with automatic retries when
 * the connection drops. Previews are freed on removal and unmount.
 */
export function useImagePicker(max: number, pathFor: PathFor): ImagePicker {
  const [queue] = useState(
    () =>
      new UploadQueue({
        max,
        check: pickedImageProblem,
        prepare: prepareImage,
        storedPreview: (url) => sizedImageUrl(url, PREVIEW_PX),
        send: (file, { signal, onProgress }) =>
          sendImage(file, (name, userId) => pathFor(userId, name, uniqueTimestamp()), {
            signal,
            onProgress: ({ loaded, total }) => onProgress(total > 0 ? loaded / total : 0),
          }),
        retryable: (err) => err instanceof UploadError && err.retryable,
      }),
  );
  useEffect(() => () => queue.destroy(), [queue]);
  const { items, refused } = useSyncExternalStore(queue.subscribe, queue.snapshot);

  const add = useCallback((files: Iterable<File>) => queue.add(files), [queue]);
  const remove = useCallback((id: string) => queue.remove(id), [queue]);
  const retry = useCallback((id: string) => queue.retry(id), [queue]);
  const preload = useCallback((urls: string[]) => queue.preload(urls), [queue]);
  const blocker = useCallback((itemName: string) => blockerOf(queue.snapshot().items, itemName), [queue]);
  const uploaded = useCallback(
    async (itemName: string) => {
      await queue.until((s) => s.items.some((it) => it.state === 'failed') || !s.items.some(isPending));
      const now = queue.snapshot().items;
      const failed = blockerOf(now, itemName);
      if (failed) throw new UploadError(failed);
      return now.map((it) => it.url ?? '');
    },
    [queue],
  );

  return useMemo(
    () => ({
      items,
      max,
      full: items.length >= max,
      refused,
      pending: items.filter(isPending).length,
      add,
      remove,
      retry,
      preload,
      blocker,
      uploaded,
    }),
    [items, max, refused, add, remove, retry, preload, blocker, uploaded],
  );
}
