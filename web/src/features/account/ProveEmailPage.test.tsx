import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { AuthProvider } from '../auth/AuthProvider';
import { installFakeSupabase, makeSession, type FakeSupabase } from '../auth/testing/fakeSupabase';
import { setSupabaseForTests } from '../../lib/supabase';
import ProveEmailPage from './ProveEmailPage';

/** A function answer that failed with status and JSON body, as supabase-js gives it. */
function httpError(status: number, body: object) {
  return Object.assign(new Error('Edge Function returned a non-2xx status code'), {
    context: new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  });
}

function Account() {
  const { pathname, state } = useLocation();
  return <p>Now at {pathname}{(state as { proven?: boolean } | null)?.proven ? ', proven' : ''}</p>;
}

let fake: FakeSupabase;
beforeEach(() => {
  fake = installFakeSupabase(makeSession());
});
afterEach(() => setSupabaseForTests(undefined));

function open(path: string) {
  render(
    <AuthProvider>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/account/prove_email" element={<ProveEmailPage />} />
          <Route path="/account" element={<Account />} />
        </Routes>
      </MemoryRouter>
    </AuthProvider>,
  );
  return userEvent.setup();
}

const SLOW = { timeout: 15_000 };

describe('ProveEmailPage', { timeout: 60_000 }, () => {
  it('proves the address only when the button is pressed, then goes to My account', async () => {
    const user = open('/account/prove_email?token_hash=tok-1');
    const button = await screen.findByRole('button', { name: 'Prove this address' }, SLOW);
    // Mail systems open links to scan them: opening the page sends nothing.
    await act(async () => {});
    expect(fake.functions.invoke).not.toHaveBeenCalled();
    fake.functions.invoke.mockResolvedValueOnce({
      data: null,
      error: httpError(403, { error: 'This link has expired, has already been used, or was sent for another account.' }),
    });
    await user.click(button);
    expect(await screen.findByText(/This link has expired/, {}, SLOW)).toBeInTheDocument();
    fake.functions.invoke.mockResolvedValueOnce({ data: { proven: true }, error: null });
    await user.click(screen.getByRole('button', { name: 'Prove this address' }));
    expect(await screen.findByText('Now at /account, proven', {}, SLOW)).toBeInTheDocument();
    expect(fake.functions.invoke).toHaveBeenLastCalledWith('account-prove-email-verify', { method: 'POST', body: { token_hash: 'tok-1' } });
  });

  it('says a link without its token is incomplete, with no button', async () => {
    open('/account/prove_email');
    expect(await screen.findByText(/This link is incomplete/, {}, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Prove this address' })).not.toBeInTheDocument();
  });
});
