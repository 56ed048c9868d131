import { configure, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { installFakeSupabase, makeSession } from '../auth/testing/fakeSupabase';
import { AnnouncementsPage, statusWords } from './AnnouncementsPage';
import type { Announcement } from './launchApi';
import { ReferralsPage } from './ReferralsPage';
import { withQueries } from './testing';

vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

const SENDING = {
  id: 'a1',
  program: 'Wardrobe Clearance Program',
  subject: 'We are open',
  body: 'Come along',
  status: 'sending',
  ratePerSecond: 5,
  allQueued: false,
  recipients: 120,
  total: 130,
  skipped: 2,
  queued: 10,
  sent: 100,
  failing: 1,
  bounced: 9,
  failed: 0,
  createdBy: 'founder@example.com',
  createdAt: '2026-11-27T09:00:00Z',
  updatedAt: '2026-11-27T09:01:00Z',
  startedAt: '2026-11-27T09:00:30Z',
  finishedAt: null,
};

let calls: { url: string; method: string; body?: string }[] = [];
beforeEach(() => {
  installFakeSupabase(makeSession());
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      calls.push({ url, method: init?.method ?? 'GET', body: init?.body as string | undefined });
      const answers: Record<string, unknown> = {
        '/admin/v1/announcements': { items: [SENDING] },
        '/admin/v1/bounces': { items: [{ email: 'gone@example.com', reason: '550 no such user', createdAt: '2026-11-27T09:01:00Z' }] },
        '/admin/v1/announcements/a1/preview': { to: 'founder@example.com', subject: 'We are open', body: 'Come along\n\nUnsubscribe: https://x/u', listUnsubscribe: 'https://x/u' },
        '/admin/v1/announcements/a1/pause': { ...SENDING, status: 'paused' },
        '/admin/v1/referrals?limit=50': {
          programs: [{ program: 'Upcycling Initiative', signups: 3, credited: 2 }],
          top: [{ signupId: 's1', email: 'owner@example.com', program: 'Upcycling Initiative', referrals: 3, credited: 2, lastAt: '2026-11-27T09:00:00Z' }],
        },
        '/admin/v1/referrals/s1': {
          items: [{ signupId: 's2', email: 'farm1@example.com', credited: false, reason: 'same device', createdAt: '2026-11-27T09:00:00Z' }],
        },
      };
      return url in answers ? new Response(JSON.stringify(answers[url])) : new Response('{"error":"no"}', { status: 404 });
    }),
  );
});
afterEach(() => {
  setSupabaseForTests(undefined);
  vi.unstubAllGlobals();
});

describe('the console’s announcements and referrals', () => {
  it('shows the progress, the preview with its unsubscribe headers, the moves its status allows and the bouncing addresses', async () => {
    render(withQueries(<AnnouncementsPage />));
    const counts = await screen.findByTestId('announcement-counts');
    expect(counts).toHaveTextContent(/^100 of 130 sent$/);
    expect(screen.getByTestId('announcement-status')).toHaveTextContent(/^Sending…$/);
    expect(screen.getByTestId('announcement-problems')).toHaveTextContent(/^1 being tried again · 9 bounced · 2 skipped \(address bouncing\)$/);
    expect(screen.queryByText(/queued so far/)).not.toBeInTheDocument();
    expect(screen.getByText('gone@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send to the waitlist' })).not.toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByLabelText('Preview')).toHaveTextContent('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    await vi.waitFor(() => expect(calls.some((c) => c.url === '/admin/v1/announcements/a1/pause' && c.method === 'POST')).toBe(true));
  });

  it('says a finished sending in words: sent to everyone, or finished when some failed', () => {
    const done = { ...SENDING, status: 'done', allQueued: true, total: 120, queued: 0, failing: 0, sent: 120, bounced: 0 } as Announcement;
    expect(statusWords(done)).toBe('Sent to everyone');
    expect(statusWords({ ...done, sent: 118, failed: 2 })).toBe('Finished');
    expect(statusWords({ ...done, status: 'draft' })).toBe('Draft: not sent yet');
  });

  it('lists the top referrers and, for one, the sign-ups through their link with why they were not credited', async () => {
    render(withQueries(<ReferralsPage />));
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'owner@example.com' }));
    expect(await screen.findByText('farm1@example.com')).toBeInTheDocument();
    expect(screen.getByText('No: same device')).toBeInTheDocument();
    expect(screen.getByText('Upcycling Initiative: 3 (2 credited)')).toBeInTheDocument();
  });
});
