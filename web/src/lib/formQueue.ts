/**
 * The queue of public forms waiting for a connection, kept in IndexedDB so
 * that it outlives a reload or a closed tab. Each entry carries the key the
 * form made when it was first sent (sent as the Idempotency-Key header): the
 * page, a later visit and the service worker (public/sw-forms.js, on
 * Background Sync) may all send it, and the server keeps it once.
 *
 * Where IndexedDB is missing (or refused), the queue lives in memory: the
 * form is then sent while the tab lives, as before.
 */

/** One form waiting to be sent. */
export interface QueuedForm {
  /** The Idempotency-Key: made once per sending, kept across retries. */
  key: string;
  /** The function to invoke (FUNCTIONS). */
  fn: string;
  /** The JSON body, exactly as sent. */
  body: Record<string, unknown>;
  /** When the form was first sent (ms since the epoch). */
  at: number;
}

/** Database, store and Background Sync tag; public/sw-forms.js uses the same names. */
export const QUEUE_DB = 'salaula-forms';
export const QUEUE_STORE = 'queue';
export const QUEUE_SYNC_TAG = 'salaula-forms';
/** Set in localStorage while something may be queued, so a visit loads this module only then. */
export const QUEUE_FLAG = 'salaula-forms-queued';

const memory = new Map<string, QueuedForm>();
let dbPromise: Promise<IDBDatabase | null> | undefined;

function openDB(): Promise<IDBDatabase | null> {
  dbPromise ??= new Promise<IDBDatabase | null>((resolve) => {
    if (typeof indexedDB === 'undefined') return resolve(null);
    try {
      const req = indexedDB.open(QUEUE_DB, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(QUEUE_STORE, { keyPath: 'key' });
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(null);
      req.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
  return dbPromise;
}

function run<T>(mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return openDB().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        if (!db) return reject(new Error('no IndexedDB'));
        const tx = db.transaction(QUEUE_STORE, mode);
        const req = op(tx.objectStore(QUEUE_STORE));
        tx.oncomplete = () => resolve(req.result);
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      }),
  );
}

function setFlag(on: boolean) {
  try {
    if (on) localStorage.setItem(QUEUE_FLAG, '1');
    else localStorage.removeItem(QUEUE_FLAG);
  } catch {
    // No storage: the next visit simply does not look.
  }
}

/** newClientKey makes a form's Idempotency-Key. */
export function newClientKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

/** queueForm keeps f until dropQueued(f.key). */
export async function queueForm(f: QueuedForm): Promise<void> {
  memory.set(f.key, f);
  setFlag(true);
  try {
    await run('readwrite', (s) => s.put(f));
  } catch {
    // Kept in memory only.
  }
}

/** dropQueued forgets the form with this key (sent, refused or cancelled). */
export async function dropQueued(key: string): Promise<void> {
  memory.delete(key);
  try {
    await run('readwrite', (s) => s.delete(key));
  } catch {
    // Nothing kept there.
  }
}

/**
 * mayHaveQueued tells whether a form may be waiting: one kept in memory, or the flag queueForm sets
 * (cleared once the queue is found empty). Without it the queue's IndexedDB is not opened at all, so
 * a form page's start costs nothing for it.
 */
export function mayHaveQueued(): boolean {
  if (memory.size > 0) return true;
  try {
    return localStorage.getItem(QUEUE_FLAG) !== null;
  } catch {
    return true;
  }
}

/** queuedForms lists the forms waiting, oldest first. */
export async function queuedForms(): Promise<QueuedForm[]> {
  let stored: QueuedForm[] = [];
  try {
    stored = await run('readonly', (s) => s.getAll() as IDBRequest<QueuedForm[]>);
  } catch {
    // Memory only.
  }
  const all = new Map<string, QueuedForm>(stored.map((f) => [f.key, f]));
  for (const [k, f] of memory) all.set(k, f);
  const list = [...all.values()].sort((a, b) => a.at - b.at);
  if (list.length === 0) setFlag(false);
  return list;
}

/**
 * askForBackgroundSync asks the service worker to send the queue when the
 * connection is back, even with the tab closed (Chromium's Background Sync;
 * elsewhere nothing happens and the next visit sends it).
 */
export async function askForBackgroundSync(): Promise<void> {
  try {
    if (!('serviceWorker' in navigator)) return;
    const reg = (await Promise.race([
      navigator.serviceWorker.ready,
      new Promise((r) => setTimeout(r, 3000, null)),
    ])) as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | null;
    await reg?.sync?.register(QUEUE_SYNC_TAG);
  } catch {
    // Not offered, or refused: the next visit sends the queue.
  }
}

/** Keys a form on screen is sending itself: sendQueued leaves them alone. */
export const heldKeys = new Set<string>();

/**
 * Event on window when a queued form was answered by the server without the
 * form on screen sending it: by sendQueued, or by the service worker
 * (public/sw-forms.js, which says so on FORMS_CHANNEL). Its detail is a
 * SentForm.
 */
export const FORM_SENT_EVENT = 'salaula-form-sent';

/** BroadcastChannel on which the service worker says it has sent a queued form ({ form, refusal }). */
export const FORMS_CHANNEL = 'salaula-forms';

/** The server's refusal of a queued form: its status and words ({ error, fields }). */
export interface Refusal {
  status: number;
  message: string;
  fields: Record<string, string>;
}

/** A queued form the server answered: kept, or refused (refusal). */
export type SentForm = QueuedForm & { refusal?: Refusal };

/**
 * answered records that the server answered f (kept it, or refused it) and
 * tells the page with FORM_SENT_EVENT; a kept one waits in sentThisVisit for
 * its form to open.
 */
function answered(f: QueuedForm, refusal?: Refusal) {
  if (!refusal) sentThisVisit.push(f);
  window.dispatchEvent(new CustomEvent<SentForm>(FORM_SENT_EVENT, { detail: refusal ? { ...f, refusal } : f }));
}

// The service worker's word that it sent a queued form becomes the same event.
if (typeof BroadcastChannel !== 'undefined') {
  new BroadcastChannel(FORMS_CHANNEL).onmessage = (e: MessageEvent<{ form?: QueuedForm; refusal?: Refusal | null }>) => {
    if (e.data?.form) answered(e.data.form, e.data.refusal ?? undefined);
  };
}

/**
 * Forms sendQueued sent during this visit that no form on screen has shown
 * yet: the form, when it opens, says they were sent (takeSent).
 */
const sentThisVisit: QueuedForm[] = [];

/** takeSent returns (and forgets) the first form sent this visit that matches. */
export function takeSent(match: (f: QueuedForm) => boolean): QueuedForm | undefined {
  const i = sentThisVisit.findIndex(match);
  return i < 0 ? undefined : sentThisVisit.splice(i, 1)[0];
}

/**
 * sendQueued sends every queued form no form on screen holds, through
 * send(f) (which throws on failure); it drops each the server answered
 * (sent or refused: the person is not there to correct it) and keeps those
 * that never reached it.
 */
export async function sendQueued(send: (f: QueuedForm) => Promise<unknown>, reachedServer: (err: unknown) => boolean): Promise<void> {
  for (const f of await queuedForms()) {
    if (heldKeys.has(f.key)) continue;
    try {
      await send(f);
      await dropQueued(f.key);
      answered(f);
    } catch (err) {
      if (reachedServer(err)) await dropQueued(f.key);
      else return;
    }
  }
  await queuedForms();
}
