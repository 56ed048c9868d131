import { useCallback, useRef } from 'react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { messageOf } from '../../lib/functionError';

/** Where one action of the account page is: not run, running, done or failed (with the message). */
export type ActionState = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done' } | { kind: 'error'; message: string };

/**
 * useAction runs one change (a TanStack Query mutation) at a time (a repeat
 * while it runs is ignored), keeps its state for the page to show, and once
 * it succeeds invalidates the queries it changed.
 */
export function useAction<A extends unknown[]>(run: (...args: A) => Promise<unknown>, invalidates: QueryKey[] = []) {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: (args: A) => run(...args),
    onSuccess: () => Promise.all(invalidates.map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
  const running = useRef(false);
  const { mutateAsync, reset } = mutation;
  const start = useCallback(
    async (...args: A) => {
      if (running.current) return false;
      running.current = true;
      try {
        await mutateAsync(args);
        return true;
      } catch {
        return false;
      } finally {
        running.current = false;
      }
    },
    [mutateAsync],
  );
  const state: ActionState =
    mutation.status === 'pending' ? { kind: 'busy' }
    : mutation.status === 'success' ? { kind: 'done' }
    : mutation.status === 'error' ? { kind: 'error', message: messageOf(mutation.error) }
    : { kind: 'idle' };
  return { state, start, reset, busy: state.kind === 'busy' };
}
