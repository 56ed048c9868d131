import { configure, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { installFakeSupabase, makeSession } from '../auth/testing/fakeSupabase';
import { PersonPage } from './PersonPage';
import { withQueries } from './testing';
import type { PersonDetail } from './api';

vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

const PERSON = {
  id: 'u1',
  email: 'chanda@example.com',
  isOperator: false,
  createdAt: '2026-11-20T09:00:00Z',
  lastSignInAt: null,
  profile: null,
  emailConfirmedAt: '2026-11-20T09:00:00Z',
  emailProvenAt: null as string | null,
  activeSessions: 1,
  images: [] as PersonDetail['images'],
};

let person = PERSON;
beforeEach(() => {
  installFakeSupabase(makeSession());
  person = PERSON;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) =>
      String(input) === '/admin/v1/people/u1' ? new Response(JSON.stringify(person)) : new Response('{}', { status: 404 }),
    ),
  );
});
afterEach(() => {
  setSupabaseForTests(undefined);
  vi.unstubAllGlobals();
});

function open() {
  render(
    withQueries(
    <MemoryRouter initialEntries={['/admin/people/u1']}>
      <Routes>
        <Route path="/admin/people/:id" element={<PersonPage />} />
      </Routes>
    </MemoryRouter>,
    ),
  );
}

describe('the console’s person page', () => {
  it('says when the address is not proven, so the rows sent with it may be someone else’s', async () => {
    open();
    expect(await screen.findByRole('heading', { name: 'chanda@example.com' })).toBeInTheDocument();
    expect(screen.getByText('E-mail proven').nextElementSibling).toHaveTextContent(
      "No: the waitlist sign-ups and contact messages sent with this address may be someone else's. Check who asks before acting on them.",
    );
  });

  it('shows each upload as a thumbnail sized for its place, linking to the whole photo', async () => {
    const url = '/storage/v1/object/public/user-media/u1/photos/1700000000-me.jpg';
    person = { ...PERSON, images: [{ key: 'user-media/u1/photos/1700000000-me.jpg', url, size: 406_000, contentType: 'image/jpeg' }] };
    open();
    const img = await screen.findByRole('img', { name: 'Upload 1700000000-me.jpg' });
    expect(img).toHaveAttribute('src', '/storage/v1/render/image/public/user-media/u1/photos/1700000000-me.jpg?width=240&height=240&resize=cover');
    expect(img.closest('a')).toHaveAttribute('href', url);
  });

  it('shows when a proven address was proven', async () => {
    person = { ...PERSON, emailProvenAt: '2026-12-03T10:00:00Z' };
    open();
    await screen.findByRole('heading', { name: 'chanda@example.com' });
    expect(screen.getByText('E-mail proven').nextElementSibling).not.toHaveTextContent(/^No/);
  });
});
