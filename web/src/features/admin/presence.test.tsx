import { act, configure, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { installFakeSupabase, makeSession, type FakeSupabase } from '../auth/testing/fakeSupabase';
import { AlsoHere, PRESENCE_CHANNEL } from './presence';

vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

let fake: FakeSupabase;
beforeEach(() => {
  fake = installFakeSupabase(makeSession());
});
afterEach(() => {
  setSupabaseForTests(undefined);
});

async function joined() {
  await waitFor(() => expect(fake.realtime.open()).toHaveLength(1));
  const ch = fake.realtime.last();
  act(() => ch.status('SUBSCRIBED'));
  return ch;
}

it('names the other operators on the same console page, and follows the page', async () => {
  const { rerender } = render(<AlsoHere userId="me" email="mutale@example.com" page="/admin/messages" />);
  const ch = await joined();
  expect(ch.name).toBe(PRESENCE_CHANNEL);
  expect(ch.opts?.config?.presence?.key).toBe('me');
  await waitFor(() => expect(ch.tracked).toEqual([{ email: 'mutale@example.com', page: '/admin/messages' }]));
  expect(screen.queryByText(/Also here/)).toBeNull();

  act(() =>
    ch.presence({
      me: [{ email: 'mutale@example.com', page: '/admin/messages' }, { email: 'mutale@example.com', page: '/admin/people' }],
      op2: [{ email: 'chanda@example.com', page: '/admin/messages' }],
      op3: [{ email: 'bwalya@example.com', page: '/admin/people' }],
    }),
  );
  expect(screen.getByRole('status')).toHaveTextContent('Also here: chanda@example.com');

  rerender(<AlsoHere userId="me" email="mutale@example.com" page="/admin/people" />);
  await waitFor(() => expect(ch.tracked.at(-1)).toEqual({ email: 'mutale@example.com', page: '/admin/people' }));
  expect(screen.getByRole('status')).toHaveTextContent('Also here: bwalya@example.com');
  expect(screen.getByRole('status')).not.toHaveTextContent('mutale');
});

it('shows nothing once the channel fails, and leaves the channel when unmounted', async () => {
  const { unmount } = render(<AlsoHere userId="me" email="mutale@example.com" page="/admin" />);
  const ch = await joined();
  act(() => ch.presence({ op2: [{ email: 'chanda@example.com', page: '/admin' }] }));
  expect(screen.getByRole('status')).toHaveTextContent('Also here: chanda@example.com');
  act(() => ch.status('CHANNEL_ERROR', new Error('gone')));
  expect(screen.queryByText(/Also here/)).toBeNull();
  expect(ch.removed).toBe(true);
  unmount();
  expect(fake.realtime.open()).toHaveLength(0);
});
