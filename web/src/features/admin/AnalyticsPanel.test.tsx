import { configure, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { installFakeSupabase, makeSession } from '../auth/testing/fakeSupabase';
import { AnalyticsPanel, funnelRate, type Analytics } from './AnalyticsPanel';
import { withQueries } from './testing';

// Generous: each answer draws a chart, slow in jsdom on a busy machine.
vi.setConfig({ testTimeout: 45_000 });
configure({ asyncUtilTimeout: 5_000 });

/** A sample answer of GET /admin/v1/analytics, as the server sends it. */
const SAMPLE: Analytics = {
  from: '2026-10-25',
  to: '2026-11-23',
  days: [
    { day: '2026-11-22', visitors: 70, pageviews: 180, waitlist: 8, accounts: 3 },
    { day: '2026-11-23', visitors: 50, pageviews: 120, waitlist: 4, accounts: 2 },
  ],
  totals: { visitors: 120, pageviews: 300 },
  top_pages: [
    { path: '/', visitors: 80, pageviews: 150 },
    { path: '/wardrobeclearance', visitors: 25, pageviews: 40 },
  ],
  referrers: [
    { host: 'facebook.com', visitors: 30 },
    { host: '', visitors: 60 },
  ],
  utm_sources: [{ source: 'radio', visitors: 20 }],
  utm_campaigns: [{ campaign: 'launch', visitors: 10 }],
  funnel: [
    { step: 'visitors', count: 120, rate: null },
    { step: 'waitlist_joined', count: 12, rate: 0.1 },
    { step: 'account_created', count: 5, rate: 0.4167 },
    { step: 'role_chosen', count: 4, rate: 0.8 },
    { step: 'onboarding_finished', count: 2, rate: 0.5 },
  ],
};

const EMPTY: Analytics = {
  ...SAMPLE,
  days: SAMPLE.days.map((d) => ({ ...d, visitors: 0, pageviews: 0, waitlist: 0, accounts: 0 })),
  totals: { visitors: 0, pageviews: 0 },
  top_pages: [],
  referrers: [],
  utm_sources: [],
  utm_campaigns: [],
  funnel: SAMPLE.funnel.map((s) => ({ ...s, count: 0, rate: null })),
};

/** answers: what the fake server answers to the next calls, in turn; the last one repeats. */
let answers: { status: number; body: unknown }[];
const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => {
  const a = answers.length > 1 ? answers.shift()! : answers[0];
  return new Response(JSON.stringify(a.body), { status: a.status });
});
const calls = () => fetchMock.mock.calls.map((c) => String(c[0]));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-23T10:00:00Z'));
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockClear();
  installFakeSupabase(makeSession());
});
afterEach(() => {
  setSupabaseForTests(undefined);
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderPanel() {
  render(withQueries(<AnalyticsPanel />));
  return userEvent.setup({ delay: null });
}

/** rows reads a table as the text of its cells, row by row, headers included. */
function rows(name: string): string[][] {
  return within(screen.getByRole('table', { name }))
    .getAllByRole('row')
    .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent ?? ''));
}

describe('the overview’s visits and sign-ups', () => {
  it('asks for the last 30 days with the operator’s token and shows the totals, the funnel with its rates and the top sources and pages', async () => {
    answers = [{ status: 200, body: SAMPLE }];
    const user = renderPanel();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the visits…');
    expect(await screen.findByText('25 Oct 2026 to 23 Nov 2026 (UTC days): 120 visitors, 300 page views.')).toBeInTheDocument();
    expect(calls()).toEqual(['/admin/v1/analytics?from=2026-10-25&to=2026-11-23']);
    expect((fetchMock.mock.calls[0][1]?.headers as Record<string, string>).Authorization).toBe('Bearer access-token');
    expect(screen.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');

    // The funnel: every step with its count; a rate only over the same people (never over visitors, which are addresses).
    const funnel = within(screen.getByRole('list', { name: 'Funnel' }))
      .getAllByRole('listitem')
      .map((li) => li.getAttribute('aria-label'));
    expect(funnel).toEqual([
      'Visitors: 120',
      'Joined a waitlist: 12',
      'Created an account: 5',
      'Chose a role: 4, 80% of created an account',
      'Finished onboarding: 2, 50% of chose a role',
    ]);
    expect(screen.getByText('80% of created an account')).toBeVisible();
    expect(screen.getByText(/^A visitor is one network address on one day/)).toBeVisible();

    // The chart says in words what it shows, and its figures are in a table.
    expect(screen.getByRole('figure', { name: /^Visitors and waitlist sign-ups per day From 25 Oct 2026 to 23 Nov 2026: 120 visitors and 12 waitlist sign-ups in all; the busiest day was 22 Nov 2026 with 70 visitors\.$/ })).toBeInTheDocument();
    await user.click(screen.getByText('The figures per day'));
    expect(rows('Visits and sign-ups per day')).toEqual([
      ['Day', 'Visitors', 'Page views', 'Waitlist', 'Accounts'],
      ['2026-11-22', '70', '180', '8', '3'],
      ['2026-11-23', '50', '120', '4', '2'],
    ]);

    expect(rows('Referrers')).toEqual([['Site', 'Visitors'], ['facebook.com', '30'], ['(direct)', '60']]);
    expect(rows('UTM sources')).toEqual([['Source', 'Visitors'], ['radio', '20']]);
    expect(rows('UTM campaigns')).toEqual([['Campaign', 'Visitors'], ['launch', '10']]);
    expect(rows('Top pages')).toEqual([['Page', 'Visitors', 'Page views'], ['/', '80', '150'], ['/wardrobeclearance', '25', '40']]);
    expect(screen.getByRole('rowheader', { name: 'radio' })).toBeInTheDocument();
  });

  it('says "No visits recorded yet" when the range has none, and shows no empty tables', async () => {
    answers = [{ status: 200, body: EMPTY }];
    renderPanel();
    expect(await screen.findByText('No visits recorded yet')).toBeInTheDocument();
    expect(screen.getByText(/0 visitors, 0 page views\.$/)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('figure')).not.toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Funnel' })).not.toBeInTheDocument();
  });

  it('never gives a rate above 100 %, nor one between different populations', () => {
    expect(funnelRate('waitlist_joined', 8, { step: 'visitors', count: 2 })).toBe('');
    expect(funnelRate('account_created', 8, { step: 'waitlist_joined', count: 2 })).toBe('');
    expect(funnelRate('role_chosen', 3, { step: 'account_created', count: 4 })).toBe('75% of created an account');
    expect(funnelRate('role_chosen', 5, { step: 'account_created', count: 4 })).toBe('more than created an account in this range (some started before it)');
    expect(funnelRate('onboarding_finished', 1, { step: 'role_chosen', count: 0 })).toBe('no chose a role to compare with');
  });

  it('still shows the funnel when milestones were counted but no visits', async () => {
    answers = [{ status: 200, body: { ...EMPTY, funnel: [{ step: 'visitors', count: 0, rate: null }, { step: 'waitlist_joined', count: 3, rate: null }] } }];
    renderPanel();
    expect(await screen.findByText('No visits recorded yet')).toBeInTheDocument();
    const funnel = within(screen.getByRole('list', { name: 'Funnel' })).getAllByRole('listitem');
    expect(funnel.map((li) => li.getAttribute('aria-label'))).toEqual(['Visitors: 0', 'Joined a waitlist: 3']);
  });

  it('shows the server’s message when the figures cannot be loaded, and tries again on request', async () => {
    answers = [{ status: 503, body: { error: 'The service is busy' } }, { status: 200, body: SAMPLE }];
    const user = renderPanel();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the visits: The service is busy');
    expect(screen.queryByRole('list', { name: 'Funnel' })).not.toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Funnel' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(calls()).toHaveLength(2);
  });

  it('asks for another range when one is chosen', async () => {
    answers = [{ status: 200, body: SAMPLE }];
    const user = renderPanel();
    await screen.findByRole('list', { name: 'Funnel' });
    await user.click(screen.getByRole('button', { name: '7 days' }));
    await screen.findByRole('list', { name: 'Funnel' });
    await user.click(screen.getByRole('button', { name: '90 days' }));
    await screen.findByRole('list', { name: 'Funnel' });
    expect(calls()).toEqual([
      '/admin/v1/analytics?from=2026-10-25&to=2026-11-23',
      '/admin/v1/analytics?from=2026-11-17&to=2026-11-23',
      '/admin/v1/analytics?from=2026-08-26&to=2026-11-23',
    ]);
    expect(screen.getByRole('button', { name: '90 days' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('checks a custom range before asking for it', async () => {
    answers = [{ status: 200, body: EMPTY }];
    const user = renderPanel();
    await screen.findByText('No visits recorded yet');
    await user.click(screen.getByRole('button', { name: 'Custom' }));
    const form = screen.getByRole('form', { name: 'Custom range' });
    const fromField = within(form).getByLabelText('From');
    const toField = within(form).getByLabelText('To');
    // (A date field is filled by the browser's date picker: set its value as the picker does.)
    fireEvent.change(fromField, { target: { value: '2026-11-10' } });
    fireEvent.change(toField, { target: { value: '2026-11-01' } });
    await user.click(within(form).getByRole('button', { name: 'Show' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('The first day must come before the last.');
    expect(calls()).toHaveLength(1);

    fireEvent.change(toField, { target: { value: '2026-11-20' } });
    await user.click(within(form).getByRole('button', { name: 'Show' }));
    await screen.findByText('No visits recorded yet');
    expect(calls()).toHaveLength(2);
    expect(calls().at(-1)).toBe('/admin/v1/analytics?from=2026-11-10&to=2026-11-20');
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
  });
});
