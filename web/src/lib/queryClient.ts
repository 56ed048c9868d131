import { QueryClient } from '@tanstack/react-query';

/**
 * The app's one TanStack Query client: every page that reads server data
 * (the account pages and the console) reads it through this cache. Query
 * keys are arrays that start with the area ('account', 'admin') and then the
 * list and its filter, so a mutation or a realtime event invalidates exactly
 * what it changed. The provider wraps only the routes that use it, so the
 * public landing pages load none of it.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A phone on costly data: no refetch just because the tab came back.
      refetchOnWindowFocus: false,
      // Two tries for a dropped connection; a 4xx answer is final.
      retry: (failureCount, error) => failureCount < 2 && !isClientError(error),
      staleTime: 30_000,
    },
  },
});

/** isClientError tells an answer the server refused (4xx), which a retry cannot change. */
function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
