import { configure, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { authError, installFakeSupabase, makeSession } from './testing/fakeSupabase';
import { renderAuth } from './testing/renderAuth';

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

describe('sign-in with two-step sign-in on', () => {
  async function signIn() {
    renderAuth('/sign_up?mode=login');
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText('Email'), 'chanda@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'SIGN IN' }));
    return user;
  }

  it('asks for the 6-digit code after the password, then goes on', async () => {
    const fake = installFakeSupabase();
    fake.withSecondStep();
    fake.withRole('buyer');
    const user = await signIn();
    expect(await screen.findByRole('heading', { name: 'TWO-STEP SIGN-IN' })).toBeInTheDocument();
    expect(fake.functions.invoke).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('6-digit code'), '123456');
    await user.click(screen.getByRole('button', { name: 'VERIFY' }));
    expect(await screen.findByText('Now at /index')).toBeInTheDocument();
    expect(fake.auth.mfa.challengeAndVerify).toHaveBeenCalledWith({ factorId: 'factor-1', code: '123456' });
  });

  it('refuses a code that is not 6 digits without asking the server, and shows a wrong code plainly', async () => {
    const fake = installFakeSupabase();
    fake.withSecondStep();
    const user = await signIn();
    await user.type(await screen.findByLabelText('6-digit code'), '123');
    await user.click(screen.getByRole('button', { name: 'VERIFY' }));
    expect(screen.getByText('Type the 6 digits your authenticator app shows.')).toBeInTheDocument();
    expect(fake.auth.mfa.challengeAndVerify).not.toHaveBeenCalled();
    fake.auth.mfa.challengeAndVerify.mockResolvedValueOnce({ data: null, error: authError('Invalid TOTP code entered', 422, 'mfa_verification_failed') });
    await user.type(screen.getByLabelText('6-digit code'), '456');
    await user.click(screen.getByRole('button', { name: 'VERIFY' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That code is not right.');
    expect(screen.queryByText(/Now at/)).not.toBeInTheDocument();
  });

  it('after too many wrong codes, says how long to wait', async () => {
    const fake = installFakeSupabase();
    fake.withSecondStep();
    const user = await signIn();
    const wait = 'Too many wrong codes in a row. Wait 2 minutes, then type the code your app shows.';
    fake.auth.mfa.challengeAndVerify.mockResolvedValueOnce({ data: null, error: authError(wait, 429, 'over_request_rate_limit') });
    await user.type(await screen.findByLabelText('6-digit code'), '123456');
    await user.click(screen.getByRole('button', { name: 'VERIFY' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(wait);
    expect(screen.queryByText(/Now at/)).not.toBeInTheDocument();
  });

  it('a stored password-only session is asked for the code on load', async () => {
    const fake = installFakeSupabase(makeSession());
    fake.withSecondStep();
    renderAuth('/sign_up');
    expect(await screen.findByLabelText('6-digit code')).toBeInTheDocument();
  });
});

describe('/account/security', () => {
  it('turns two-step sign-in on with the QR code and the key, then off with a code', async () => {
    const fake = installFakeSupabase(makeSession());
    renderAuth('/account/security');
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('Two-step sign-in is off.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'TURN ON TWO-STEP SIGN-IN' }));
    expect(await screen.findByRole('img', { name: 'QR code to scan with your authenticator app' })).toHaveAttribute(
      'src',
      'data:image/svg+xml;utf-8,<svg/>',
    );
    expect(screen.getByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    await user.type(screen.getByLabelText('6-digit code'), '654321');
    await user.click(screen.getByRole('button', { name: 'TURN ON' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Two-step sign-in is on.');
    expect(fake.auth.mfa.challengeAndVerify).toHaveBeenCalledWith({ factorId: 'factor-1', code: '654321' });

    await user.type(screen.getByLabelText('6-digit code'), '111222');
    await user.click(screen.getByRole('button', { name: 'TURN OFF TWO-STEP SIGN-IN' }));
    expect(await screen.findByText('Two-step sign-in is off.')).toBeInTheDocument();
    expect(fake.auth.mfa.unenroll).toHaveBeenCalledWith({ factorId: 'factor-1' });
  });

  it('sends a visitor to sign in', async () => {
    installFakeSupabase();
    renderAuth('/account/security');
    expect(await screen.findByText(/Now at \/sign_up\?next=%2Faccount%2Fsecurity|WELCOME BACK!/)).toBeInTheDocument();
  });
});
