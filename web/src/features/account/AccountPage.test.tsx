import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { AuthProvider } from '../auth/AuthProvider';
import { installFakeSupabase, makeSession, type FakeSupabase } from '../auth/testing/fakeSupabase';
import { setSupabaseForTests } from '../../lib/supabase';
import AccountPage from './AccountPage';

const BUYER = {
  user_id: 'u1',
  email: 'chipo@example.com',
  role: 'buyer',
  full_name: 'Chipo Mwale',
  location: 'Chilenje, Lusaka',
  age: 24,
  phone_number: '+260971234567',
  gender: 'Female',
  height: '165 cm',
  waist_size: '28',
  style_description: 'Chitenge prints',
  clothing_aesthetics: ['DENIM WEAR', 'STREET WEAR'],
  inspiration: '',
  wants_clearance_program: true,
  body_photo_urls: ['http://localhost/storage/v1/object/public/user-media/u1/a.jpg'],
  profile_pic_url: null,
  logo_urls: [],
};

/** A function answer that failed with status and JSON body, as supabase-js gives it. */
function httpError(status: number, body: object) {
  return Object.assign(new Error('Edge Function returned a non-2xx status code'), {
    context: new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  });
}

function Elsewhere() {
  const { pathname } = useLocation();
  return <p>Now at {pathname}</p>;
}

let fake: FakeSupabase;
beforeEach(() => {
  fake = installFakeSupabase(makeSession());
  const invoke = fake.functions.invoke as unknown as ReturnType<typeof vi.fn>;
  invoke.mockImplementation(async (name: string) => (name === 'get-profile-me' ? { data: BUYER, error: null } : { data: {}, error: null }));
});
afterEach(() => setSupabaseForTests(undefined));

function open() {
  render(
    <AuthProvider>
      <MemoryRouter initialEntries={['/account']}>
        <Routes>
          <Route path="/account" element={<AccountPage />} />
          <Route path="*" element={<Elsewhere />} />
        </Routes>
      </MemoryRouter>
    </AuthProvider>,
  );
  return userEvent.setup();
}

/** The shared test machine is slow: give the first answers time. */
const SLOW = { timeout: 15_000 };

describe('AccountPage', { timeout: 60_000 }, () => {
  it('shows the saved profile with its photos, Edit and Add the seller side', async () => {
    open();
    expect(await screen.findByText('+260971234567', {}, SLOW)).toBeInTheDocument();
    expect(screen.getByText('Buyer')).toBeInTheDocument();
    expect(screen.getByText('DENIM WEAR, STREET WEAR')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Photo 1' })).toHaveAttribute('src', BUYER.body_photo_urls[0]);
    expect(screen.getByRole('link', { name: 'Edit profile' })).toHaveAttribute('href', '/onboarding?role=buyer&edit=1');
    expect(screen.getByRole('link', { name: 'Add the seller side' })).toHaveAttribute('href', '/sellersignup?role=buyer_and_seller&edit=1');
    expect(screen.getByRole('link', { name: 'Two-step sign-in' })).toHaveAttribute('href', '/account/security');
  });

  it('shows why the profile could not be loaded, and loads it again on Try again', async () => {
    fake.functions.invoke.mockResolvedValueOnce({ data: null, error: httpError(503, { error: 'The service is busy. Please try again in a moment.' }) });
    const user = open();
    expect(await screen.findByText('Could not load your account: The service is busy. Please try again in a moment.', {}, SLOW)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('+260971234567', {}, SLOW)).toBeInTheDocument();
  });

  it('changes the password with the current one, and shows the server’s refusal', async () => {
    const user = open();
    await screen.findByText('+260971234567', {}, SLOW);
    const form = screen.getByRole('form', { name: 'Change password' });
    await user.click(within(form).getByRole('button', { name: 'CHANGE PASSWORD' }));
    expect(within(form).getByText('Current password is required')).toBeInTheDocument();
    expect(fake.auth.updateUser).not.toHaveBeenCalled();
    fake.auth.updateUser.mockResolvedValueOnce({ data: { user: null }, error: Object.assign(new Error('Your current password is not correct'), { status: 400 }) } as never);
    await user.type(within(form).getByLabelText('Current password'), 'old-password-1');
    await user.type(within(form).getByLabelText('New password'), 'new-password-22');
    await user.click(within(form).getByRole('button', { name: 'CHANGE PASSWORD' }));
    expect(await within(form).findByText('Your current password is not correct', {}, SLOW)).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'CHANGE PASSWORD' }));
    expect(await within(form).findByText(/Your password has been changed/, {}, SLOW)).toBeInTheDocument();
    expect(fake.auth.updateUser).toHaveBeenLastCalledWith({ password: 'new-password-22', current_password: 'old-password-1' });
  });

  it('deletes the account only with the right password, then says so and clears the session', async () => {
    const user = open();
    await screen.findByText('+260971234567', {}, SLOW);
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    expect(within(dialog).getByText('your profile, with your photos and logos;')).toBeInTheDocument();
    fake.functions.invoke.mockResolvedValueOnce({ data: null, error: httpError(401, { error: 'The password is not correct' }) });
    await user.type(within(dialog).getByLabelText('Password'), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'DELETE MY ACCOUNT' }));
    expect(await within(dialog).findByText('The password is not correct', {}, SLOW)).toBeInTheDocument();
    expect(fake.auth.signOut).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'DELETE MY ACCOUNT' }));
    expect(await screen.findByText(/Your account has been deleted/, {}, SLOW)).toBeInTheDocument();
    expect(fake.functions.invoke).toHaveBeenLastCalledWith('account-delete', { method: 'POST', body: { password: 'wrong' } });
    await vi.waitFor(() => expect(fake.auth.signOut).toHaveBeenCalledWith({ scope: 'local' }));
    expect(screen.getByText(/Your account has been deleted/)).toBeInTheDocument();
  });

  it('follows its own profile live: a change made on another device shows without a reload', async () => {
    open();
    await screen.findByText('+260971234567', {}, SLOW);
    await vi.waitFor(() => expect(fake.realtime.open()).toHaveLength(1));
    const ch = fake.realtime.last();
    const id = makeSession().user.id;
    expect(ch.bindings.map((b) => b.filter)).toEqual([{ event: '*', schema: 'public', table: 'profiles', filter: `user_id=eq.${id}` }]);
    act(() => ch.status('SUBSCRIBED'));
    fake.functions.invoke.mockResolvedValue({ data: { ...BUYER, full_name: 'Chipo Banda', location: 'Kabulonga, Lusaka' }, error: null });
    act(() => ch.change('profiles', 'UPDATE', { user_id: id, full_name: 'Chipo Banda' }));
    expect(await screen.findByText('Kabulonga, Lusaka', {}, SLOW)).toBeInTheDocument();
    expect(screen.getByText('Chipo Banda')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Just updated from another device.');
    expect(screen.queryByText('Loading your account...')).not.toBeInTheDocument();
  });
});
