import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';

/**
 * withQueries wraps a console page for a test in a QueryClient of its own
 * (as AdminApp wraps the console in the app's): nothing cached from another
 * test, and a failed load shown at once instead of tried again.
 */
export function withQueries(ui: ReactElement): ReactElement {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
  return <QueryClientProvider client={client}>{ui}</QueryClientProvider>;
}
