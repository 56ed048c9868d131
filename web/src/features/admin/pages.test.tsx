import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { installFakeSupabase, makeSession } from '../auth/testing/fakeSupabase';
import { MessagesPage, PeoplePage, WaitlistPage } from './pages';
import { withQueries } from './testing';

beforeEach(() => {
  installFakeSupabase(makeSession());
  vi.stubGlobal('fetch', vi.fn(async () => Response.json({ items: [], nextCursor: null, total: 0 })));
});
afterEach(() => {
  setSupabaseForTests(undefined);
  vi.unstubAllGlobals();
});

describe('the console lists', () => {
  it.each([
    ['waitlist', <WaitlistPage />, 'Search e-mail', 'Finds addresses that start with what you type, or whose domain (after the @) does; start with @ to search domains only.'],
    [
      'messages',
      <MessagesPage />,
      'Search e-mail or name',
      'Finds messages whose address, its domain (after the @), first name or last name starts with what you type; start with @ to search domains only.',
    ],
    [
      'people',
      <PeoplePage />,
      'Search e-mail or name',
      "Finds people whose address, its domain (after the @), full name or the name's last word starts with what you type; start with @ to search domains only.",
    ],
  ])('say under the %s search box what a search matches', async (_, page, label, hint) => {
    render(withQueries(<MemoryRouter>{page}</MemoryRouter>));
    expect(await screen.findByText('Nothing matches')).toBeInTheDocument();
    const box = screen.getByRole('searchbox', { name: label });
    expect(box).toHaveAttribute('maxLength', '254');
    expect(screen.getByText(hint)).toBeInTheDocument();
  });
});
