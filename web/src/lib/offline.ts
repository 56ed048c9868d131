import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { FunctionCallError, NETWORK_ERROR_MESSAGE, invokePublicFunction, isNetworkFailure } from './functionError';
import { FORM_SENT_EVENT, askForBackgroundSync, dropQueued, heldKeys, mayHaveQueued, newClientKey, queueForm, queuedForms, sendQueued, takeSent, type QueuedForm, type SentForm } from './formQueue';

/** Shown by a form whose sending waits for the connection to come back. */
export const WAITING_FOR_CONNECTION_MESSAGE =
  'No internet connection. We kept what you typed and will send it automatically as soon as you are back online.';

/** useOnline follows the browser's idea of being online (navigator.onLine and its events). */
export function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}

/** isOfflineFailure tells a call that never reached the server from one the server refused. */
export function isOfflineFailure(err: unknown): boolean {
  if (err instanceof FunctionCallError) return err.status === undefined && err.message === NETWORK_ERROR_MESSAGE;
  return isNetworkFailure(err);
}

/** How often a waiting form tries again when the browser thinks it is online but calls still fail. */
const RETRY_MS = 15_000;

/** sendForm invokes a queued form's function with its Idempotency-Key and returns its answer. */
export async function sendForm(f: QueuedForm): Promise<unknown> {
  return invokePublicFunction(f.fn, f.body, { 'Idempotency-Key': f.key });
}

/**
 * useSendWhenOnline sends a public form's body to function fn now or,
 * without a connection (offline, or the call never reached the server),
 * keeps it in the form queue (lib/formQueue: IndexedDB, so it outlives a
 * reload or a closed tab) and sends it by itself when the connection comes
 * back; the service worker may send it too (Background Sync), and the
 * server keeps it once. A form opened again while its body waits shows it
 * (restore, for a queued body that mine(body) claims) and goes on waiting.
 * While `waiting`, the form keeps its fields and says so; `cancel` drops
 * the pending send (the fields stay).
 */
export function useSendWhenOnline(
  fn: string,
  mine: (body: Record<string, unknown>) => boolean,
  restore: (body: Record<string, unknown>) => void,
  onSent: (answer?: unknown) => void,
  onFailed: (err: unknown) => void,
) {
  const [sending, setSending] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const pending = useRef<QueuedForm | null>(null);
  const busy = useRef(false);
  /** Keys whose answer sentElsewhere has told already: this page's own try then says nothing more. */
  const saidElsewhere = useRef(new Set<string>());
  const latest = useRef({ mine, restore, onSent, onFailed });
  useLayoutEffect(() => {
    latest.current = { mine, restore, onSent, onFailed };
  });

  const release = (f: QueuedForm) => {
    heldKeys.delete(f.key);
    void dropQueued(f.key);
    if (pending.current?.key === f.key) pending.current = null;
  };

  const attempt = async (f: QueuedForm) => {
    if (busy.current) return;
    busy.current = true;
    setSending(true);
    try {
      const answer = await sendForm(f);
      // Answered meanwhile by the service worker (sentElsewhere): said already.
      if (saidElsewhere.current.has(f.key)) return;
      release(f);
      setWaiting(false);
      latest.current.onSent(answer);
    } catch (err) {
      if (saidElsewhere.current.has(f.key)) return;
      if (isOfflineFailure(err)) {
        pending.current = f;
        setWaiting(true);
        void askForBackgroundSync();
      } else {
        release(f);
        setWaiting(false);
        latest.current.onFailed(err);
      }
    } finally {
      busy.current = false;
      setSending(false);
    }
  };

  // A body of this form kept from an earlier visit: show it and send it
  // (or, if it was just sent in the background, say so).
  useEffect(() => {
    let live = true;
    const ours = (f: QueuedForm) => f.fn === fn && latest.current.mine(f.body);
    // Sent by a later visit's sendQueued or by the service worker: said as
    // soon as the server answered, whatever this page was waiting for.
    const sentElsewhere = (e: Event) => {
      const f = (e as CustomEvent<SentForm>).detail;
      if (!ours(f) || (pending.current && pending.current.key !== f.key)) return;
      takeSent((s) => s.key === f.key);
      saidElsewhere.current.add(f.key);
      if (pending.current) release(pending.current);
      setWaiting(false);
      if (f.refusal) latest.current.onFailed(new FunctionCallError(f.refusal.message || 'The form was refused', f.refusal.fields, f.refusal.status));
      else latest.current.onSent();
    };
    window.addEventListener(FORM_SENT_EVENT, sentElsewhere);
    if (takeSent(ours)) latest.current.onSent();
    // Nothing kept (the usual visit): the queue's IndexedDB stays closed.
    if (mayHaveQueued()) void queuedForms().then((list) => {
      const f = list.find((q) => q.fn === fn && !heldKeys.has(q.key) && latest.current.mine(q.body));
      if (!live || !f || pending.current) return;
      heldKeys.add(f.key);
      pending.current = f;
      latest.current.restore(f.body);
      setWaiting(true);
      if (navigator.onLine) void attempt(f);
    });
    return () => {
      live = false;
      window.removeEventListener(FORM_SENT_EVENT, sentElsewhere);
      // Left on screen no more: a later visit (or the service worker) sends it.
      if (pending.current) heldKeys.delete(pending.current.key);
    };
    // attempt reads everything through refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fn]);

  useEffect(() => {
    if (!waiting) return;
    const retry = () => {
      if (pending.current !== null && navigator.onLine) void attempt(pending.current);
    };
    window.addEventListener('online', retry);
    const timer = window.setInterval(retry, RETRY_MS);
    return () => {
      window.removeEventListener('online', retry);
      window.clearInterval(timer);
    };
    // attempt reads everything through refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [waiting]);

  return {
    /** True while a call is under way. */
    sending,
    /** True while a body waits for the connection. */
    waiting,
    submit(body: Record<string, unknown>) {
      const f: QueuedForm = { key: newClientKey(), fn, body, at: Date.now() };
      heldKeys.add(f.key);
      pending.current = f;
      setSending(navigator.onLine);
      // Kept before the first try, so a tab closed while sending loses nothing.
      const kept = queueForm(f);
      if (!navigator.onLine) {
        setWaiting(true);
        void kept.then(askForBackgroundSync);
        return;
      }
      void kept.then(() => attempt(f));
    },
    cancel() {
      if (pending.current) release(pending.current);
      setWaiting(false);
    },
  };
}

/**
 * sendQueuedForms sends the forms kept from an earlier visit that no form
 * on screen is sending (main.tsx calls it at a visit's start, when
 * something is queued, and when the connection comes back).
 */
export function sendQueuedForms(): Promise<void> {
  return sendQueued(sendForm, (err) => !isOfflineFailure(err));
}
