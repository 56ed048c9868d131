import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { installFakeSupabase, makeSession } from '../auth/testing/fakeSupabase';
import { ListView } from './ListView';
import { withQueries } from './testing';

type Row = { id: string; email: string };

beforeEach(() => {
  installFakeSupabase(makeSession());
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ items: [{ id: 'w1', email: 'first@example.com' }], nextCursor: null, total: 10000, totalAtLeast: true })),
  );
});
afterEach(() => {
  setSupabaseForTests(undefined);
  vi.unstubAllGlobals();
});

describe('ListView', () => {
  it('says what a search matches, and "more than" when the server stopped counting', async () => {
    render(
      withQueries(
      <ListView<Row>
        title="Waitlist"
        endpoint="waitlist"
        csv={false}
        search="Search e-mail"
        searchHint="Finds addresses that start with what you type, or whose domain (after the @) does."
        rowKey={(r) => r.id}
        columns={[{ label: 'E-mail', render: (r) => r.email }]}
      />,
      ),
    );
    expect(await screen.findByText('1–1 of more than 10,000')).toBeInTheDocument();
    expect(screen.getByText('Finds addresses that start with what you type, or whose domain (after the @) does.')).toBeInTheDocument();
  });
});
