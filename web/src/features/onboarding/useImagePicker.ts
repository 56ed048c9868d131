import { useCallback, useEffect, useRef, useState } from 'react';
import { isImageFile } from '../../lib/images';
import { uploadImage } from './api';

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
}

/** What useImagePicker gives a form. */
export interface ImagePicker {
  items: PickedImage[];
  max: number;
  full: boolean;
  /** Adds image files up to max; returns how many were dropped (not images, or over max). */
  add: (files: Iterable<File>) => number;
  remove: (id: string) => void;
  /** preload shows images already saved (their public URLs) as uploaded, to keep or remove. */
  preload: (urls: string[]) => void;
  /**
   * uploadAll uploads each image not yet uploaded, one after the other (a
   * slow phone connection does better with one at a time), and returns all
   * public URLs in order. pathFor gets the final file name and a timestamp
   * that is unique within the batch. It throws the first upload error.
   */
  uploadAll: (pathFor: (fileName: string, timestamp: number) => string) => Promise<string[]>;
}

let nextId = 0;

/**
 * useImagePicker keeps up to max picked images with object-URL previews
 * (revoked on removal and unmount) and their upload states.
 */
export function useImagePicker(max: number): ImagePicker {
  const [items, setItems] = useState<PickedImage[]>([]);
  const itemsRef = useRef(items);
  itemsRef.current = items;

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
        previewUrl: url,
        state: 'done' as const,
        url,
      }));
      itemsRef.current = saved;
      setItems(saved);
    },
    [max],
  );

  const uploadAll = useCallback(
    async (pathFor: (fileName: string, timestamp: number) => string) => {
      const urls: string[] = [];
      let last = 0;
      for (const it of itemsRef.current) {
        if (it.url) {
          urls.push(it.url);
          continue;
        }
        last = Math.max(Date.now(), last + 1);
        const timestamp = last;
        update(it.id, { state: 'uploading' });
        try {
          const url = await uploadImage(it.file, (name) => pathFor(name, timestamp));
          update(it.id, { state: 'done', url });
          urls.push(url);
        } catch (err) {
          update(it.id, { state: 'failed' });
          throw err;
        }
      }
      return urls;
    },
    [update],
  );

  return { items, max, full: items.length >= max, add, remove, preload, uploadAll };
}
