import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Alert } from '../components/form/Alert';
import { Button } from '../components/form/Button';
import { FunctionCallError, NETWORK_ERROR_MESSAGE, isNetworkFailure } from './functionError';

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

/**
 * useSendWhenOnline sends a form's payload now or, without a connection
 * (offline, or the call never reached the server), keeps it and sends it by
 * itself when the connection comes back. While `waiting`, the form keeps its
 * fields and says so; `cancel` drops the pending send (the fields stay).
 */
export function useSendWhenOnline<T>(send: (payload: T) => Promise<void>, onSent: () => void, onFailed: (err: unknown) => void) {
  const [sending, setSending] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const pending = useRef<T | null>(null);
  const busy = useRef(false);
  const latest = useRef({ send, onSent, onFailed });
  useLayoutEffect(() => {
    latest.current = { send, onSent, onFailed };
  });

  const attempt = async (payload: T) => {
    if (busy.current) return;
    busy.current = true;
    setSending(true);
    try {
      await latest.current.send(payload);
      pending.current = null;
      setWaiting(false);
      latest.current.onSent();
    } catch (err) {
      if (isOfflineFailure(err)) {
        pending.current = payload;
        setWaiting(true);
      } else {
        pending.current = null;
        setWaiting(false);
        latest.current.onFailed(err);
      }
    } finally {
      busy.current = false;
      setSending(false);
    }
  };

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
    /** True while a payload waits for the connection. */
    waiting,
    submit(payload: T) {
      if (!navigator.onLine) {
        pending.current = payload;
        setWaiting(true);
        return;
      }
      void attempt(payload);
    },
    cancel() {
      pending.current = null;
      setWaiting(false);
    },
  };
}

/** NeedsConnection says, while offline, that what the page does needs a connection (sign-in, onboarding). */
export function NeedsConnection({ what }: { what: string }) {
  const online = useOnline();
  if (online) return null;
  return (
    <Alert severity="warning" role="status" className="mb2">
      No internet connection. {what} needs a connection: you can fill in the form, then send it once you are back online.
    </Alert>
  );
}

/** WaitingForConnection is what a form shows while its sending waits for the connection; "Don't send" cancels. */
export function WaitingForConnection({ onCancel }: { onCancel: () => void }) {
  return (
    <Alert
      severity="info"
      role="status"
      action={
        <Button color="inherit" size="small" onClick={onCancel}>
          Don't send
        </Button>
      }
    >
      {WAITING_FOR_CONNECTION_MESSAGE}
    </Alert>
  );
}
