import type { ComponentType, ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from './queryClient';

/**
 * QueryProvider gives its children the app's one query client. Only the
 * pages that read server data wrap themselves in it (withQueries), so the
 * landing pages load no TanStack Query code.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

/** withQueries wraps a page (or a part shown on its own) in QueryProvider. */
export function withQueries<P extends object>(Inner: ComponentType<P>): ComponentType<P> {
  function WithQueries(props: P) {
    return (
      <QueryProvider>
        <Inner {...props} />
      </QueryProvider>
    );
  }
  WithQueries.displayName = `withQueries(${Inner.displayName ?? Inner.name ?? 'Page'})`;
  return WithQueries;
}
