import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { authError, installFakeSupabase, makeSession } from './testing/fakeSupabase';
import { renderAuth } from './testing/renderAuth';

// Several suites share this machine: typing through user-event can take seconds.
vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  setSupabaseForTests(undefined);
  vi.restoreAllMocks();
});

const LINK = '/reset_password?token_hash=abc123&type=recovery';
const EXPIRED = 'This password reset link has expired or has already been used. Ask for a new one below.';

async function choosePassword(password: string, confirm = password) {
  const user = userEvent.setup({ delay: null });
  if (password) await user.type(screen.getByLabelText('New password'), password);
  if (confirm) await user.type(screen.getByLabelText('Confirm new password'), confirm);
  await user.click(screen.getByRole('button', { name: 'SAVE NEW PASSWORD' }));
  return user;
}

describe('/reset_password', () => {
  it('checks the link as the page opens, then asks for the new password twice', async () => {
    const fake = installFakeSupabase();
    renderAuth(LINK, { strict: true });
    expect(await screen.findByText('Checking your link...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveAttribute('autocomplete', 'new-password');
    expect(screen.getByLabelText('Confirm new password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Show new password' })).toBeInTheDocument();
    // Checked once, even in StrictMode (the service spends a reset link only when the password is set).
    expect(fake.auth.verifyOtp).toHaveBeenCalledTimes(1);
    expect(fake.auth.verifyOtp).toHaveBeenCalledWith({ token_hash: 'abc123', type: 'recovery' });
  });

  it('says a used or expired link is spent as the page opens, before any typing, and offers a new one', async () => {
    const fake = installFakeSupabase();
    fake.auth.verifyOtp.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: authError('Email link is invalid or has expired', 403, 'otp_expired'),
    } as never);
    renderAuth(LINK);
    expect(await screen.findByText(EXPIRED)).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(fake.auth.updateUser).not.toHaveBeenCalled();
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Email'), 'chanda@example.com');
    await user.click(screen.getByRole('button', { name: 'SEND RESET LINK' }));
    expect(await screen.findByText(/If an account exists for chanda@example.com/)).toBeInTheDocument();
    expect(fake.auth.resetPasswordForEmail).toHaveBeenCalledWith('chanda@example.com', {
      redirectTo: `${window.location.origin}/reset_password`,
    });
  });

  it("says a link the service's verify page refused (its error in the address) is spent, without calling the service", async () => {
    const fake = installFakeSupabase();
    renderAuth('/reset_password#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired');
    expect(await screen.findByText(EXPIRED)).toBeInTheDocument();
    expect(fake.auth.verifyOtp).not.toHaveBeenCalled();
  });

  it('takes a link that passed by the verify page by the session it brought', async () => {
    const fake = installFakeSupabase(makeSession());
    renderAuth('/reset_password#access_token=a&refresh_token=r&type=recovery');
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(fake.auth.verifyOtp).not.toHaveBeenCalled();
  });

  it('says the connection, not the link, is the problem when the service cannot be reached, and tries again', async () => {
    const fake = installFakeSupabase();
    fake.auth.verifyOtp.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: Object.assign(new Error('Failed to fetch'), { name: 'AuthRetryableFetchError', status: 0 }),
    } as never);
    renderAuth(LINK);
    expect(await screen.findByText('Could not reach Salaula. Check your internet connection')).toBeInTheDocument();
    expect(screen.queryByText(EXPIRED)).not.toBeInTheDocument();
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
  });

  it('treats a link without its token as a bad link, without calling the service', async () => {
    const fake = installFakeSupabase();
    renderAuth('/reset_password');
    expect(await screen.findByText(EXPIRED)).toBeInTheDocument();
    expect(fake.auth.verifyOtp).not.toHaveBeenCalled();
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(await screen.findByRole('heading', { name: 'WELCOME BACK!' })).toBeInTheDocument();
  });

  it('requires both fields and that they match', async () => {
    const fake = installFakeSupabase();
    renderAuth(LINK);
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await choosePassword('', '');
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your new password')).toBeInTheDocument();
    await userEvent.setup({ delay: null }).type(screen.getByLabelText('New password'), 'new-secret-1');
    await userEvent.setup({ delay: null }).type(screen.getByLabelText('Confirm new password'), 'new-secret-2');
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'SAVE NEW PASSWORD' }));
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(fake.auth.updateUser).not.toHaveBeenCalled();
  });

  it("shows the service's message when it refuses the password", async () => {
    const fake = installFakeSupabase();
    fake.auth.updateUser.mockResolvedValueOnce({
      data: { user: null },
      error: authError('Password is known to be weak and easy to guess, please choose a different one.', 422, 'weak_password'),
    } as never);
    renderAuth(LINK);
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await choosePassword('password1');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Password is known to be weak and easy to guess, please choose a different one.',
    );
    expect(screen.getByRole('button', { name: 'SAVE NEW PASSWORD' })).toBeEnabled();
    expect(fake.auth.signOut).not.toHaveBeenCalled();
    // A second try saves the password without checking the link again.
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'SAVE NEW PASSWORD' }));
    await waitFor(() => expect(fake.auth.updateUser).toHaveBeenCalledTimes(2));
    expect(fake.auth.verifyOtp).toHaveBeenCalledTimes(1);
  });

  it('saves the password, signs out and sends the person to sign in with a green notice', async () => {
    const fake = installFakeSupabase();
    renderAuth(LINK);
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await choosePassword('a-much-better-secret');
    expect(await screen.findByRole('heading', { name: 'WELCOME BACK!' })).toBeInTheDocument();
    expect(fake.auth.verifyOtp).toHaveBeenCalledWith({ token_hash: 'abc123', type: 'recovery' });
    expect(fake.auth.updateUser).toHaveBeenCalledWith({ password: 'a-much-better-secret' });
    expect(fake.auth.signOut).toHaveBeenCalled();
    const banner = screen.getByRole('alert');
    expect(banner).toHaveTextContent('Your password has been changed. Sign in with your new password.');
    expect(banner).toHaveClass('fk-alert-success'); // the green banner
    // The toggle clears the banner, as for the red one.
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('with two-step sign-in on, asks for the code before saving the password', async () => {
    const fake = installFakeSupabase();
    fake.withSecondStep();
    fake.auth.updateUser.mockResolvedValueOnce({
      data: { user: null },
      error: authError('AAL2 session is required to update email or password when MFA is enabled.', 403, 'insufficient_aal'),
    } as never);
    renderAuth(LINK);
    await screen.findByRole('heading', { name: 'Choose a new password' });
    const user = await choosePassword('a-much-better-secret');
    const step = await screen.findByRole('form', { name: 'Two-step sign-in' });
    expect(screen.queryByText(/AAL2/)).not.toBeInTheDocument();
    await user.type(within(step).getByLabelText('6-digit code'), '123456');
    await user.click(within(step).getByRole('button', { name: 'VERIFY' }));
    expect(await screen.findByRole('heading', { name: 'WELCOME BACK!' })).toBeInTheDocument();
    expect(fake.auth.mfa.challengeAndVerify).toHaveBeenCalledWith({ factorId: 'factor-1', code: '123456' });
    expect(fake.auth.updateUser).toHaveBeenCalledTimes(2);
    expect(fake.auth.verifyOtp).toHaveBeenCalledTimes(1);
  });
});
