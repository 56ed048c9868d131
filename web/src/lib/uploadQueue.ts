/**
 * The queue of picked photos that upload while a person fills in the rest
 * of a form. Each file is checked the moment it is picked, readied (shrunk)
 * one at a time, and sent at most two at a time across the whole page; an
 * upload cut off by the network is tried again after a pause that doubles,
 * a failed one can be tried again by hand without picking it again, and
 * removing a photo stops its upload. The queue knows nothing of React or of
 * storage: its owner gives it check, prepare and send
 * (features/onboarding/useImagePicker.ts does).
 */

/**
 * Where a picked file is: being checked and shrunk, waiting for a free
 * upload, uploading, pausing before an automatic retry, uploaded, or failed.
 */
export type UploadState = 'checking' | 'waiting' | 'uploading' | 'retrying' | 'done' | 'failed';

/** One picked file in the queue. */
export interface UploadItem {
  readonly id: string;
  /** The file as picked (its name is the one the person knows). */
  readonly file: File;
  readonly previewUrl: string;
  readonly state: UploadState;
  /** While uploading: the share of the file sent, 0 to 1. */
  readonly progress: number;
  /** Once uploaded: the file's public URL. */
  readonly url?: string;
  /** When failed: why; while retrying: why the last attempt failed. */
  readonly error?: string;
  /** While retrying: which automatic retry comes next, of how many. */
  readonly retry?: { readonly next: number; readonly of: number };
}

/** What the queue shows: its items, and the messages of the files it refused (each names its file). */
export interface UploadQueueState {
  readonly items: readonly UploadItem[];
  readonly refused: readonly string[];
}

/** What send gets beside the file. */
export interface SendOptions {
  signal: AbortSignal;
  /** Reports the share of the file sent, 0 to 1. */
  onProgress: (fraction: number) => void;
}

/** How a queue checks, readies and sends its files. */
export interface UploadQueueOptions {
  /** Most files the queue holds. */
  max: number;
  /** Checks a file at once when picked: a message (naming the file) refuses it. */
  check?: (file: File) => string | undefined;
  /** Readies a file for sending (shrinks it); an error refuses the file, with the error's message. */
  prepare?: (file: File, signal: AbortSignal) => Promise<File>;
  /** Sends a readied file and resolves with its public URL. */
  send: (file: File, options: SendOptions) => Promise<string>;
  /** Whether a failed send may be tried again by itself (a cut connection; not a refusal). */
  retryable?: (err: unknown) => boolean;
  /** The pauses before each automatic retry; their number is the number of retries. */
  retryDelaysMs?: readonly number[];
  /** The uploads that may run at once; shared by every queue of the page unless given. */
  slots?: Slots;
  /** The files that may be readied at once (decoding a photo takes a lot of memory). */
  prepareSlots?: Slots;
  /** Makes and frees preview URLs (object URLs unless given). */
  preview?: { create: (file: File) => string; revoke: (url: string) => void };
  /** The preview of a photo already stored, from its public URL (the URL itself unless given). */
  storedPreview?: (url: string) => string;
  /** Waits ms, or rejects when signal aborts (a timer unless given). */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Pauses before the three automatic retries of an upload cut off by the network. */
export const RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000];
/** Uploads at once: two keep a slow link busy without one photo starving the others. */
export const UPLOADS_AT_ONCE = 2;

/**
 * Slots lets at most n tasks run at once; the others wait in order. A
 * waiting task whose signal aborts leaves the line.
 */
export class Slots {
  private free: number;
  private readonly line: Array<() => void> = [];

  constructor(n: number) {
    this.free = n;
  }

  /** acquire resolves with the release of a slot (calling it more than once is harmless). */
  acquire(signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const grant = () => {
        signal?.removeEventListener('abort', leave);
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.handOn();
        });
      };
      const leave = () => {
        const i = this.line.indexOf(grant);
        if (i >= 0) this.line.splice(i, 1);
        reject(signal?.reason);
      };
      if (this.free > 0) {
        this.free--;
        grant();
        return;
      }
      this.line.push(grant);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  /** handOn gives a released slot to the first task waiting, or frees it. */
  private handOn() {
    const next = this.line.shift();
    if (next) next();
    else this.free++;
  }
}

/** The upload slots of the page: every photo queue shares them. */
const pageUploadSlots = new Slots(UPLOADS_AT_ONCE);
/** One photo readied at a time: each decoding holds the whole picture in memory. */
const pagePrepareSlots = new Slots(1);

/** isPending is true for an item not yet uploaded nor failed. */
export function isPending(item: UploadItem): boolean {
  return item.state !== 'done' && item.state !== 'failed';
}

/** pause waits ms, or rejects with the signal's reason when it aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

let lastId = 0;

/** UploadQueue holds up to max picked files and uploads each as soon as it is picked. */
export class UploadQueue {
  private state: UploadQueueState = { items: [], refused: [] };
  private readonly listeners = new Set<() => void>();
  private readonly controllers = new Map<string, AbortController>();
  private readonly ready = new Map<string, File>();
  /** Preview URLs the queue made (saved photos' URLs are not its to free). */
  private readonly ownPreviews = new Set<string>();
  private readonly options: UploadQueueOptions;

  constructor(options: UploadQueueOptions) {
    this.options = options;
  }

  /** subscribe calls listener after every change; it returns the unsubscribe. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** snapshot is the current state (a new object after each change). */
  snapshot = (): UploadQueueState => this.state;

  /**
   * add takes picked files: each one check refuses is left out with its
   * message (in refused, replacing the last pick's), the rest up to max are
   * queued and start at once. It returns how many files were left out for
   * want of room.
   */
  add(files: Iterable<File>): number {
    const refused: string[] = [];
    const accepted: File[] = [];
    for (const file of files) {
      const problem = this.options.check?.(file);
      if (problem) refused.push(problem);
      else accepted.push(file);
    }
    const taken = accepted.slice(0, Math.max(0, this.options.max - this.state.items.length));
    const added: UploadItem[] = taken.map((file) => {
      const previewUrl = (this.options.preview?.create ?? URL.createObjectURL)(file);
      this.ownPreviews.add(previewUrl);
      return { id: `upload-${++lastId}`, file, previewUrl, state: 'checking', progress: 0 };
    });
    this.set({ items: [...this.state.items, ...added], refused });
    for (const it of added) void this.run(it.id);
    return accepted.length - taken.length;
  }

  /** remove drops an item, stopping its upload (or its wait) and freeing its preview. */
  remove(id: string) {
    const gone = this.state.items.find((it) => it.id === id);
    if (!gone) return;
    this.controllers.get(id)?.abort();
    this.controllers.delete(id);
    this.ready.delete(id);
    this.freePreview(gone.previewUrl);
    this.set({ ...this.state, items: this.state.items.filter((it) => it.id !== id) });
  }

  /** retry sends a failed item again, as readied before (nothing is picked or shrunk again). */
  retry(id: string) {
    const it = this.state.items.find((x) => x.id === id);
    if (it?.state === 'failed') void this.run(id);
  }

  /** preload replaces the items with photos already stored (their public URLs), as uploaded. */
  preload(urls: string[]) {
    for (const it of this.state.items) this.remove(it.id);
    const saved: UploadItem[] = urls.slice(0, this.options.max).map((url) => ({
      id: `upload-${++lastId}`,
      file: new File([], decodeURIComponent(url.split('/').pop() ?? 'image')),
      previewUrl: this.options.storedPreview?.(url) ?? url,
      state: 'done',
      progress: 1,
      url,
    }));
    this.set({ items: saved, refused: [] });
  }

  /** until resolves at the first state (now or later) for which done is true. */
  until(done: (state: UploadQueueState) => boolean): Promise<void> {
    if (done(this.state)) return Promise.resolve();
    return new Promise((resolve) => {
      const stop = this.subscribe(() => {
        if (!done(this.state)) return;
        stop();
        resolve();
      });
    });
  }

  /** destroy stops every upload and frees the previews (the page is closing). */
  destroy() {
    for (const c of this.controllers.values()) c.abort();
    this.controllers.clear();
    for (const url of this.ownPreviews) this.freePreview(url);
  }

  private freePreview(url: string) {
    if (!this.ownPreviews.delete(url)) return;
    (this.options.preview?.revoke ?? URL.revokeObjectURL)(url);
  }

  private set(state: UploadQueueState) {
    this.state = state;
    for (const l of [...this.listeners]) l();
  }

  /** update changes one item, if it is still there. */
  private update(id: string, patch: Partial<UploadItem>) {
    if (!this.state.items.some((it) => it.id === id)) return;
    this.set({ ...this.state, items: this.state.items.map((it) => (it.id === id ? { ...it, ...patch } : it)) });
  }

  /** refuse drops an item prepare refused, keeping the message. */
  private refuse(id: string, message: string) {
    this.remove(id);
    this.set({ ...this.state, refused: [...this.state.refused, message] });
  }

  /**
   * run readies an item (once) and sends it: it waits for a slot, uploads,
   * and on a retryable failure pauses and tries again, up to the number of
   * retry delays; then the item is done or failed. Removing the item aborts
   * whatever step it is at, silently.
   */
  private async run(id: string) {
    const item = this.state.items.find((it) => it.id === id);
    if (!item) return;
    const ctrl = new AbortController();
    this.controllers.set(id, ctrl);
    const { signal } = ctrl;
    const delays = this.options.retryDelaysMs ?? RETRY_DELAYS_MS;
    const wait = this.options.wait ?? pause;
    try {
      let file = this.ready.get(id);
      if (!file) {
        this.update(id, { state: 'checking' });
        const release = await (this.options.prepareSlots ?? pagePrepareSlots).acquire(signal);
        try {
          file = this.options.prepare ? await this.options.prepare(item.file, signal) : item.file;
        } catch (err) {
          if (!signal.aborted) this.refuse(id, messageOf(err));
          return;
        } finally {
          release();
        }
        if (signal.aborted) return;
        this.ready.set(id, file);
      }
      for (let attempt = 0; ; attempt++) {
        this.update(id, { state: 'waiting', progress: 0 });
        const release = await (this.options.slots ?? pageUploadSlots).acquire(signal);
        try {
          this.update(id, { state: 'uploading', progress: 0, error: undefined, retry: undefined });
          const url = await this.options.send(file, { signal, onProgress: (progress) => this.update(id, { progress }) });
          if (signal.aborted) return;
          this.update(id, { state: 'done', progress: 1, url });
          return;
        } catch (err) {
          if (signal.aborted) return;
          if (attempt >= delays.length || !this.options.retryable?.(err)) {
            this.update(id, { state: 'failed', progress: 0, error: messageOf(err) });
            return;
          }
          this.update(id, { state: 'retrying', progress: 0, error: messageOf(err), retry: { next: attempt + 1, of: delays.length } });
          release();
          await wait(delays[attempt], signal);
        } finally {
          release();
        }
      }
    } catch (err) {
      // Aborted while waiting for a slot or pausing: the item is gone. Anything else is a failure.
      if (!signal.aborted) this.update(id, { state: 'failed', progress: 0, error: messageOf(err) });
    } finally {
      if (this.controllers.get(id) === ctrl) this.controllers.delete(id);
    }
  }
}
