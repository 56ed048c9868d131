import { configure, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { createClient } from '@supabase/supabase-js';
import { setSupabaseForTests } from '../../lib/supabase';
import { listMyPhotos, MyPhotos, type MyPhoto } from './MyPhotos';

configure({ asyncUtilTimeout: 5_000 });

const photo = (name: string): MyPhoto => ({ path: `me/${name}`, url: `/storage/v1/object/public/user-media/me/${name}` });

it("shows the person's uploaded photos, newest first", async () => {
  const list = vi.fn(async () => [photo('2-back.webp'), photo('logos/1-logo.png')]);
  render(<MyPhotos userId="me" list={list} />);
  expect(screen.getByRole('status')).toHaveTextContent('Loading your photos');
  expect(await screen.findByText(/2 photos uploaded, newest first/)).toBeInTheDocument();
  expect(list).toHaveBeenCalledWith('me');
  const imgs = screen.getAllByRole('img');
  expect(imgs.map((i) => i.getAttribute('src'))).toEqual([photo('2-back.webp').url, photo('logos/1-logo.png').url]);
  expect(imgs[0]).toHaveAccessibleName('Uploaded photo 1');
});

it('says when there are none, and offers a retry when listing fails', async () => {
  const list = vi.fn().mockRejectedValueOnce(new Error('Service busy')).mockResolvedValueOnce([]);
  render(<MyPhotos userId="me" list={list} />);
  expect(await screen.findByRole('alert')).toHaveTextContent('Could not list your uploaded photos: Service busy');
  await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByText('You have not uploaded any photos.')).toBeInTheDocument();
  await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
});

it('lists nothing before the person is known', () => {
  const list = vi.fn(async () => []);
  render(<MyPhotos userId={undefined} list={list} />);
  expect(list).not.toHaveBeenCalled();
});

it('lists each photo with the URL of its thumbnail, sized as supabase-js asks for it', async () => {
  const client = createClient('http://h:1', 'anon-key', { auth: { persistSession: false, autoRefreshToken: false } });
  setSupabaseForTests(client, { url: 'http://h:1', anonKey: 'anon-key', supportEmail: 'help@example.com' });
  const file = (name: string) => ({ name, id: `id-${name}`, updated_at: null, created_at: null, last_accessed_at: null, metadata: {} });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      const { prefix } = JSON.parse(String(init.body)) as { prefix: string };
      const entries = prefix === 'me' ? [file('2-back.jpg'), { ...file('logos'), id: null }] : [file('1-logo.png')];
      return new Response(JSON.stringify(entries), { headers: { 'Content-Type': 'application/json' } });
    }),
  );
  try {
    expect(await listMyPhotos('me')).toEqual([
      { path: 'me/2-back.jpg', url: 'http://h:1/storage/v1/render/image/public/user-media/me/2-back.jpg?width=144&height=144&resize=cover' },
      { path: 'me/logos/1-logo.png', url: 'http://h:1/storage/v1/render/image/public/user-media/me/logos/1-logo.png?width=144&height=144&resize=cover' },
    ]);
  } finally {
    setSupabaseForTests(undefined);
    vi.unstubAllGlobals();
  }
});
