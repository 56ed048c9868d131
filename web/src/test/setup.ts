import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// findBy* and waitFor poll until this deadline: lazily loaded parts of the page (the side menu, say)
// can take over the default second to arrive on a busy two-core machine.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no layout: give the app the browser APIs it calls.
window.scrollTo = (() => {}) as typeof window.scrollTo;

// Each test starts with an empty query cache, and a failed query fails at once (no retry delay).
import { queryClient } from '../lib/queryClient';
queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
afterEach(() => queryClient.clear());
