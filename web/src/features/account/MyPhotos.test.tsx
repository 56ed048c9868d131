import { configure, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { MyPhotos, type MyPhoto } from './MyPhotos';

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
