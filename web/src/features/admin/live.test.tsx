import { act, configure, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { installFakeSupabase, makeSession, type FakeSupabase } from '../auth/testing/fakeSupabase';
import { LIVE_HIGHLIGHT_MS } from '../../config/constants';
import { LiveIndicator, LiveProvider } from './live';
import { ListView } from './ListView';
import { OverviewPage } from './OverviewPage';
import { withQueries } from './testing';

vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

type Row = { id: string; email: string };
let rows: Row[];
let calls: string[];
const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
  const url = String(input);
  calls.push(url);
  if (url.startsWith('/admin/v1/waitlist')) return Response.json({ items: rows, nextCursor: null, total: rows.length });
  if (url === '/admin/v1/overview') return Response.json(overview(rows.length));
  return Response.json({ error: 'no such call' }, { status: 404 });
});

function overview(signups: number) {
  return {
    totals: {
      accounts: 1,
      operators: 1,
      profilesByRole: {},
      onboardingUnfinished: 0,
      waitlist: { 'Upcycling Initiative': { subscribed: signups, unsubscribed: 0 } },
      messages: { open: 0, handled: 0 },
    },
    daily: [],
    sources: { campaigns: [], referrers: [], pages: [] },
    newest: [],
    asOf: '2026-11-23T10:00:00Z',
  };
}

let fake: FakeSupabase;
beforeEach(() => {
  rows = [{ id: 'w1', email: 'first@example.com' }];
  calls = [];
  fake = installFakeSupabase(makeSession());
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
});
afterEach(() => {
  setSupabaseForTests(undefined);
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function subscribed() {
  await waitFor(() => expect(fake.realtime.open()).toHaveLength(1));
  const ch = fake.realtime.last();
  act(() => ch.status('SUBSCRIBED'));
  return ch;
}

function Waitlist() {
  return (
    <ListView<Row>
      title="Waitlist"
      endpoint="waitlist"
      csv={false}
      rowKey={(r) => r.id}
      columns={[{ label: 'E-mail', render: (r) => r.email }]}
    />
  );
}

describe('LiveIndicator', () => {
  it('says Connecting, then Live, then what went wrong with a countdown, and Live again after the reconnect', async () => {
    render(
      withQueries(
        <LiveProvider>
          <LiveIndicator />
        </LiveProvider>,
      ),
    );
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('Connecting…');
    expect(status).toHaveAttribute('data-status', 'CONNECTING');
    const ch = await subscribed();
    expect(ch.name).toBe('console');
    expect(ch.bindings.map((b) => b.filter.table)).toEqual(['waitlist_signups', 'contact_messages', 'profiles', 'accounts', 'announcements']);
    expect(status).toHaveTextContent(/^Live$/);
    expect(status).toHaveAccessibleName('Live updates: Live');

    act(() => ch.status('CHANNEL_ERROR', new Error('server restarting')));
    expect(status).toHaveTextContent('Connection lost, retrying in 1 s');
    expect(status).toHaveAttribute('title', 'CHANNEL_ERROR: server restarting');
    await waitFor(() => expect(fake.realtime.open()).toHaveLength(1)); // a new channel after 1 s
    expect(fake.realtime.channels).toHaveLength(2);
    act(() => fake.realtime.last().status('TIMED_OUT'));
    expect(status).toHaveTextContent('No answer, retrying in 2 s');
    await waitFor(() => expect(fake.realtime.channels).toHaveLength(3), { timeout: 3_000 });
    act(() => fake.realtime.last().status('SUBSCRIBED'));
    expect(status).toHaveTextContent(/^Live$/);
    act(() => fake.realtime.last().status('CLOSED'));
    expect(status).toHaveTextContent('Disconnected, retrying in 1 s');
  });

  it('shows nothing outside the console', () => {
    const { container } = render(<LiveIndicator />);
    expect(container).toBeEmptyDOMElement();
  });
});

describe('live tables', () => {
  it('shows a sign-up as it arrives, highlighted for a moment, and ignores other tables', async () => {
    render(
      withQueries(
        <LiveProvider>
          <Waitlist />
        </LiveProvider>,
      ),
    );
    const table = await screen.findByRole('table', { name: 'Waitlist' });
    expect(within(table).getByText('first@example.com')).toBeInTheDocument();
    const ch = await subscribed();
    const loads = calls.length;

    act(() => ch.change('profiles', 'UPDATE', { user_id: 'u9' }));
    await new Promise((r) => setTimeout(r, 400));
    expect(calls.length).toBe(loads); // not this list's table

    rows = [{ id: 'w2', email: 'new@example.com' }, ...rows];
    act(() => {
      ch.change('waitlist_signups', 'INSERT', { id: 'w2', email: 'new@example.com' });
      ch.change('waitlist_signups', 'INSERT', { id: 'w2', email: 'new@example.com' }); // a burst reloads once
    });
    const added = (await within(table).findByText('new@example.com')).closest('tr')!;
    expect(calls.length).toBe(loads + 1);
    expect(added).toHaveAttribute('data-live', 'new');
    expect(within(table).getByText('first@example.com').closest('tr')).not.toHaveAttribute('data-live');
    expect(screen.getByText('1–2 of 2')).toBeInTheDocument();
    await waitFor(() => expect(added).not.toHaveAttribute('data-live'), { timeout: LIVE_HIGHLIGHT_MS + 1_500 });

    // A change to a row already shown (another operator unsubscribed it) highlights that row.
    act(() => ch.change('waitlist_signups', 'UPDATE', { id: 'w1' }, { id: 'w1' }));
    await waitFor(() => expect(within(table).getByText('first@example.com').closest('tr')).toHaveAttribute('data-live', 'new'));
    expect(within(table).getByText('new@example.com').closest('tr')).not.toHaveAttribute('data-live');
  });

  it('reloads after a reconnect, since changes made meanwhile were missed', async () => {
    render(
      withQueries(
        <LiveProvider>
          <Waitlist />
        </LiveProvider>,
      ),
    );
    await screen.findByText('first@example.com');
    const ch = await subscribed();
    act(() => ch.status('CHANNEL_ERROR'));
    rows = [{ id: 'w3', email: 'missed@example.com' }, ...rows];
    await waitFor(() => expect(fake.realtime.channels).toHaveLength(2), { timeout: 2_000 });
    act(() => fake.realtime.last().status('SUBSCRIBED'));
    expect((await screen.findByText('missed@example.com')).closest('tr')).toHaveAttribute('data-live', 'new');
  });

  it('updates the overview figures as sign-ups arrive', async () => {
    render(
      withQueries(
        <MemoryRouter>
          <LiveProvider>
            <OverviewPage />
          </LiveProvider>
        </MemoryRouter>,
      ),
    );
    const card = await screen.findByRole('group', { name: 'Upcycling Initiative sign-ups' });
    expect(card).toHaveTextContent(/sign-ups1/);
    const ch = await subscribed();
    rows = [...rows, { id: 'w4', email: 'x@example.com' }];
    act(() => ch.change('waitlist_signups', 'INSERT', { id: 'w4' }));
    await waitFor(() => expect(screen.getByRole('group', { name: 'Upcycling Initiative sign-ups' })).toHaveTextContent(/sign-ups2/));
  });
});
