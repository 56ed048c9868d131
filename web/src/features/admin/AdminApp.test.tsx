import { configure, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { AuthProvider } from '../auth/AuthProvider';
import { installFakeSupabase, makeSession } from '../auth/testing/fakeSupabase';
import AdminApp from './AdminApp';

vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

/** The console API as the server answers it: `access` is the answer to the console's first call. */
let access: { status: number; body: unknown };
const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
  const url = String(input);
  if (url === '/admin/v1/audit?limit=1') return new Response(JSON.stringify(access.body), { status: access.status });
  return new Response(JSON.stringify({ error: 'The service is busy' }), { status: 503 });
});

const NO_FACTOR = { error: 'Two-step sign-in is required: enrol an authenticator app first', error_code: 'insufficient_aal' };
const AAL1 = { error: 'AAL2 required: verify your two-step sign-in code first', error_code: 'insufficient_aal' };
const OK = { status: 200, body: { items: [], nextCursor: null, total: 0 } };

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockClear();
});
afterEach(() => {
  setSupabaseForTests(undefined);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderConsole() {
  render(
    <AuthProvider>
      <MemoryRouter initialEntries={['/admin']}>
        <Routes>
          <Route path="/admin/*" element={<AdminApp />} />
          <Route path="*" element={<p>Elsewhere</p>} />
        </Routes>
      </MemoryRouter>
    </AuthProvider>,
  );
  return userEvent.setup({ delay: null });
}

describe('/admin and two-step sign-in', () => {
  it('walks an operator without an authenticator app through enrolling, then opens the console', async () => {
    const fake = installFakeSupabase(makeSession());
    access = { status: 403, body: NO_FACTOR };
    const user = renderConsole();
    expect(await screen.findByRole('heading', { name: 'Two-step sign-in', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/The Salaula console needs two-step sign-in\./)).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Waitlist' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'TURN ON TWO-STEP SIGN-IN' }));
    expect(await screen.findByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeInTheDocument();
    expect(screen.getByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    access = OK;
    await user.type(screen.getByLabelText('6-digit code'), '654321');
    await user.click(screen.getByRole('button', { name: 'TURN ON' }));
    expect(await screen.findByRole('tab', { name: 'Waitlist' })).toBeInTheDocument();
    expect(fake.auth.mfa.challengeAndVerify).toHaveBeenCalledWith({ factorId: 'factor-1', code: '654321' });
  });

  it('asks an operator with a password-only session for the code, then opens the console', async () => {
    const fake = installFakeSupabase(makeSession());
    fake.withSecondStep();
    access = { status: 403, body: AAL1 };
    const user = renderConsole();
    expect(await screen.findByRole('heading', { name: 'TWO-STEP SIGN-IN' })).toBeInTheDocument();
    expect(fake.auth.mfa.enroll).not.toHaveBeenCalled();
    // A wrong code keeps the console shut and says so.
    fake.auth.mfa.challengeAndVerify.mockResolvedValueOnce({
      data: null,
      error: Object.assign(new Error('Invalid TOTP code entered'), { status: 422, code: 'mfa_verification_failed' }),
    });
    await user.type(screen.getByLabelText('6-digit code'), '111111');
    await user.click(screen.getByRole('button', { name: 'VERIFY' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That code is not right.');
    expect(screen.queryByRole('tab', { name: 'Waitlist' })).not.toBeInTheDocument();
    access = OK;
    await user.clear(screen.getByLabelText('6-digit code'));
    await user.type(screen.getByLabelText('6-digit code'), '123456');
    await user.click(screen.getByRole('button', { name: 'VERIFY' }));
    expect(await screen.findByRole('tab', { name: 'Waitlist' })).toBeInTheDocument();
    expect(fake.auth.mfa.challengeAndVerify).toHaveBeenLastCalledWith({ factorId: 'factor-1', code: '123456' });
  });

  it('shows anyone but an operator the screen for the Salaula team, never the two-step steps', async () => {
    const fake = installFakeSupabase(makeSession());
    access = { status: 403, body: { error: 'This page is for the Salaula team' } };
    renderConsole();
    expect(await screen.findByRole('heading', { name: 'This page is for the Salaula team' })).toBeInTheDocument();
    expect(fake.auth.mfa.listFactors).not.toHaveBeenCalled();
    expect(screen.queryByLabelText('6-digit code')).not.toBeInTheDocument();
  });
});
