import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { AuthProvider } from '../auth/AuthProvider';
import { authError, installFakeSupabase, makeSession, type FakeSupabase } from '../auth/testing/fakeSupabase';
import { setSupabaseForTests } from '../../lib/supabase';
import AccountPage from './AccountPage';

// The list of uploaded photos has its own tests (MyPhotos.test.tsx).
vi.mock('./MyPhotos', () => ({ MyPhotos: () => null }));

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

/** What account-address answers for an account that has not proved its address. */
const UNPROVEN = { email: 'chipo@example.com', proven: false, proven_at: null, waitlist_signups: [], contact_messages: [] };

/** The same account once proven, with what was sent with the address. */
const PROVEN = {
  ...UNPROVEN,
  proven: true,
  proven_at: '2026-12-03T10:00:00Z',
  waitlist_signups: [{ program: 'Upcycling Initiative', created_at: '2026-11-20T09:00:00Z', unsubscribed_at: null }],
  contact_messages: [{ created_at: '2026-11-21T12:00:00Z', subject: 'other', message: 'Deliveries to Plot 12, Kabulonga' }],
};

let fake: FakeSupabase;
let address: object;
beforeEach(() => {
  fake = installFakeSupabase(makeSession());
  address = UNPROVEN;
  const invoke = fake.functions.invoke as unknown as ReturnType<typeof vi.fn>;
  invoke.mockImplementation(async (name: string) => {
    if (name === 'get-profile-me') return { data: BUYER, error: null };
    if (name === 'account-address') return { data: address, error: null };
    return { data: {}, error: null };
  });
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
    expect(await screen.findByText('097 123 4567', {}, SLOW)).toBeInTheDocument();
    expect(screen.getByText('Buyer')).toBeInTheDocument();
    expect(screen.getByText('DENIM WEAR, STREET WEAR')).toBeInTheDocument();
    // A 96 px thumbnail at twice the pixels, not the stored photo.
    expect(screen.getByRole('img', { name: 'Photo 1' })).toHaveAttribute(
      'src',
      'http://localhost/storage/v1/render/image/public/user-media/u1/a.jpg?width=192&height=192&resize=cover',
    );
    expect(screen.getByRole('link', { name: 'Edit profile' })).toHaveAttribute('href', '/onboarding?role=buyer&edit=1');
    expect(screen.getByRole('link', { name: 'Add the seller side' })).toHaveAttribute('href', '/sellersignup?role=buyer_and_seller&edit=1');
    expect(screen.getByRole('link', { name: 'Two-step sign-in' })).toHaveAttribute('href', '/account/security');
  });

  it('signed out (no session stored), sends the visitor to sign in and asks the server nothing', async () => {
    setSupabaseForTests(undefined);
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    open();
    expect(await screen.findByText('Now at /sign_up', {}, SLOW)).toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(fake.functions.invoke).not.toHaveBeenCalled();
  });

  it('shows why the profile could not be loaded, and loads it again on Try again', async () => {
    fake.functions.invoke.mockResolvedValueOnce({ data: null, error: httpError(503, { error: 'The service is busy. Please try again in a moment.' }) });
    const user = open();
    expect(await screen.findByText('Could not load your account: The service is busy. Please try again in a moment.', {}, SLOW)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('097 123 4567', {}, SLOW)).toBeInTheDocument();
  });

  it('changes the password with the current one, and shows the server’s refusal', async () => {
    const user = open();
    await screen.findByText('097 123 4567', {}, SLOW);
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
    await screen.findByText('097 123 4567', {}, SLOW);
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

  it('asks to prove the address before showing what was sent with it, and sends the link', async () => {
    const user = open();
    expect(await screen.findByText('Prove this address to see the messages and waitlist sign-ups sent with it.', {}, SLOW)).toBeInTheDocument();
    const section = screen.getByRole('region', { name: 'Messages and waitlist sign-ups' });
    fake.functions.invoke.mockResolvedValueOnce({
      data: null,
      error: httpError(429, { error: 'For security purposes, you can only request this after 42 seconds.' }),
    });
    await user.click(within(section).getByRole('button', { name: 'Send me a link' }));
    expect(await within(section).findByText('For security purposes, you can only request this after 42 seconds.', {}, SLOW)).toBeInTheDocument();
    fake.functions.invoke.mockResolvedValueOnce({ data: { email: 'chipo@example.com', message: 'We have sent a link to chipo@example.com.' }, error: null });
    await user.click(within(section).getByRole('button', { name: 'Send me a link' }));
    expect(await within(section).findByRole('status', {}, SLOW)).toHaveTextContent('We have sent a link to chipo@example.com.');
    expect(fake.functions.invoke).toHaveBeenLastCalledWith('account-prove-email', { method: 'POST' });
    expect(within(section).queryByText(/Plot 12/)).not.toBeInTheDocument();
    // Deleting an unproven account keeps what was sent with the address, and says so.
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    expect(within(dialog).getByText(/not the messages and waitlist sign-ups sent with this e-mail address/)).toBeInTheDocument();
  });

  it('shows the messages and waitlist sign-ups sent with a proven address', async () => {
    address = PROVEN;
    const user = open();
    const section = await screen.findByRole('region', { name: 'Messages and waitlist sign-ups' }, SLOW);
    expect(await within(section).findByText('Sent with chipo@example.com: 1 message and 1 waitlist sign-up.', {}, SLOW)).toBeInTheDocument();
    expect(within(section).getByRole('list', { name: 'Waitlist sign-ups' })).toHaveTextContent('Upcycling Initiative: joined 20 Nov 2026');
    expect(within(section).getByRole('list', { name: 'Messages' })).toHaveTextContent('Other, sent 21 Nov 2026: “Deliveries to Plot 12, Kabulonga”');
    expect(within(section).queryByRole('button', { name: 'Send me a link' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    expect(within(dialog).getByText('your waitlist sign-ups and the messages you sent us from this e-mail;')).toBeInTheDocument();
  });

  it('follows its own profile live: a change made on another device shows without a reload', async () => {
    open();
    await screen.findByText('097 123 4567', {}, SLOW);
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

  describe('with two-step sign-in on and a password-only session', () => {
    it('asks for the code when changing the password needs it, then changes it', async () => {
      fake.withSecondStep();
      fake.auth.updateUser.mockResolvedValueOnce({
        data: { user: null },
        error: authError('AAL2 session is required to update email or password when MFA is enabled.', 403, 'insufficient_aal'),
      } as never);
      const user = open();
      await screen.findByText('097 123 4567', {}, SLOW);
      const form = screen.getByRole('form', { name: 'Change password' });
      await user.type(within(form).getByLabelText('Current password'), 'old-password-1');
      await user.type(within(form).getByLabelText('New password'), 'new-password-22');
      await user.click(within(form).getByRole('button', { name: 'CHANGE PASSWORD' }));
      const step = await screen.findByRole('form', { name: 'Two-step sign-in' }, SLOW);
      expect(within(step).getByRole('heading', { level: 2, name: 'TWO-STEP SIGN-IN' })).toBeInTheDocument();
      expect(screen.queryByText(/AAL2/)).not.toBeInTheDocument();
      await user.type(within(step).getByLabelText('6-digit code'), '123456');
      await user.click(within(step).getByRole('button', { name: 'VERIFY' }));
      expect(await within(form).findByText(/Your password has been changed/, {}, SLOW)).toBeInTheDocument();
      expect(fake.auth.mfa.challengeAndVerify).toHaveBeenCalledWith({ factorId: 'factor-1', code: '123456' });
      expect(fake.auth.updateUser).toHaveBeenCalledTimes(2);
      expect(fake.auth.updateUser).toHaveBeenLastCalledWith({ password: 'new-password-22', current_password: 'old-password-1' });
      expect(screen.queryByRole('form', { name: 'Two-step sign-in' })).not.toBeInTheDocument();
    });

    it('deletes the account after the code; Cancel leaves it undone', async () => {
      fake.withSecondStep();
      const needsCode = () => ({
        data: null,
        error: httpError(403, { error: 'AAL2 required: verify your two-step sign-in code first', error_code: 'insufficient_aal' }),
      });
      const user = open();
      await screen.findByText('097 123 4567', {}, SLOW);
      await user.click(screen.getByRole('button', { name: 'Delete my account' }));
      const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
      await user.type(within(dialog).getByLabelText('Password'), 'my-password-1');

      fake.functions.invoke.mockResolvedValueOnce(needsCode());
      await user.click(within(dialog).getByRole('button', { name: 'DELETE MY ACCOUNT' }));
      const asked = await within(dialog).findByRole('form', { name: 'Two-step sign-in' }, SLOW);
      await user.click(within(asked).getByRole('button', { name: 'Cancel' }));
      expect(await within(dialog).findByText('Not done: this needs the code of your authenticator app.', {}, SLOW)).toBeInTheDocument();
      expect(within(dialog).queryByRole('form', { name: 'Two-step sign-in' })).not.toBeInTheDocument();

      fake.functions.invoke.mockResolvedValueOnce(needsCode());
      await user.click(within(dialog).getByRole('button', { name: 'DELETE MY ACCOUNT' }));
      const step = await within(dialog).findByRole('form', { name: 'Two-step sign-in' }, SLOW);
      await user.type(within(step).getByLabelText('6-digit code'), '654321');
      await user.click(within(step).getByRole('button', { name: 'VERIFY' }));
      expect(await screen.findByText(/Your account has been deleted/, {}, SLOW)).toBeInTheDocument();
      expect(fake.auth.mfa.challengeAndVerify).toHaveBeenCalledWith({ factorId: 'factor-1', code: '654321' });
      expect(fake.functions.invoke).toHaveBeenLastCalledWith('account-delete', { method: 'POST', body: { password: 'my-password-1' } });
    });
  });
});
