import { useCallback, useRef, useState } from 'react';

/** Where one action of the account page is: not run, running, done or failed (with the message). */
export type ActionState = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done' } | { kind: 'error'; message: string };

/**
 * useAction runs one async action at a time (a repeat while it runs is
 * ignored) and keeps its state for the page to show.
 */
export function useAction<A extends unknown[]>(run: (...args: A) => Promise<void>) {
  const [state, setState] = useState<ActionState>({ kind: 'idle' });
  const running = useRef(false);
  const start = useCallback(
    async (...args: A) => {
      if (running.current) return false;
      running.current = true;
      setState({ kind: 'busy' });
      try {
        await run(...args);
        setState({ kind: 'done' });
        return true;
      } catch (err) {
        setState({ kind: 'error', message: err instanceof Error ? err.message : String(err) });
        return false;
      } finally {
        running.current = false;
      }
    },
    [run],
  );
  const reset = useCallback(() => setState({ kind: 'idle' }), []);
  return { state, start, reset, busy: state.kind === 'busy' };
}
