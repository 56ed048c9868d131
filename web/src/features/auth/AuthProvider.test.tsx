import { configure, act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuthChangeEvent, Session } from '@supabase/supabase-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSupabase, hasSupabaseClient, setSupabaseForTests } from '../../lib/supabase';
import { AuthProvider, useAuth } from './AuthProvider';
import { installFakeSupabase, makeSession, makeUser } from './testing/fakeSupabase';

// Several suites share this machine: typing through user-event can take seconds.
vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

function WhoAmI() {
  const { isAuthenticated, user, loading, login, logout } = useAuth();
  return (
    <div>
      <p>{isAuthenticated ? `Signed in as ${user?.email}` : 'Signed out'}</p>
      <p>{loading ? 'loading' : 'ready'}</p>
      <button onClick={login}>Log in</button>
      <button onClick={() => void logout()}>Log out</button>
    </div>
  );
}

function renderProvider() {
  return render(
    <AuthProvider>
      <WhoAmI />
    </AuthProvider>,
  );
}

afterEach(() => {
  setSupabaseForTests(undefined);
  vi.restoreAllMocks();
});

describe('AuthProvider', () => {
  it('shows the skeleton, not the content, until the stored session has been read', async () => {
    const fake = installFakeSupabase();
    let finish: (s: Session | null) => void = () => {};
    fake.auth.getSession.mockImplementationOnce(
      () => new Promise((ok) => (finish = (session) => ok({ data: { session }, error: null }))),
    );
    renderProvider();
    expect(screen.getByTestId('page-skeleton')).toBeInTheDocument();
    await vi.waitFor(() => expect(fake.auth.getSession).toHaveBeenCalled());
    expect(screen.getByTestId('page-skeleton')).toBeInTheDocument();
    expect(screen.queryByText('Signed out')).not.toBeInTheDocument();
    await act(async () => finish(null));
    expect(await screen.findByText('Signed out')).toBeInTheDocument();
    expect(screen.getByText('ready')).toBeInTheDocument();
    expect(screen.queryByTestId('page-skeleton')).not.toBeInTheDocument();
  });

  it('starts signed in when a session is stored', async () => {
    installFakeSupabase(makeSession(makeUser('mwila@example.com')));
    renderProvider();
    expect(await screen.findByText('Signed in as mwila@example.com')).toBeInTheDocument();
  });

  it.each<[AuthChangeEvent, boolean]>([
    ['SIGNED_IN', true],
    ['TOKEN_REFRESHED', true],
    ['PASSWORD_RECOVERY', true],
    ['USER_UPDATED', true],
    ['MFA_CHALLENGE_VERIFIED', true],
    ['INITIAL_SESSION', true],
    ['SIGNED_OUT', false],
  ])('follows the %s event', async (event, withSession) => {
    const fake = installFakeSupabase(withSession ? null : makeSession(makeUser('before@example.com')));
    renderProvider();
    await screen.findByText(withSession ? 'Signed out' : 'Signed in as before@example.com');
    act(() => fake.emit(event, withSession ? makeSession(makeUser(`${event.toLowerCase()}@example.com`)) : null));
    expect(
      await screen.findByText(withSession ? `Signed in as ${event.toLowerCase()}@example.com` : 'Signed out'),
    ).toBeInTheDocument();
  });

  it('login only logs: it calls nothing and changes nothing', async () => {
    const fake = installFakeSupabase();
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    renderProvider();
    await userEvent.setup({ delay: null }).click(await screen.findByRole('button', { name: 'Log in' }));
    expect(log).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Signed out')).toBeInTheDocument();
    expect(fake.auth.signInWithPassword).not.toHaveBeenCalled();
    expect(fake.auth.signUp).not.toHaveBeenCalled();
  });

  it('logout signs out and the state follows', async () => {
    const fake = installFakeSupabase(makeSession());
    renderProvider();
    await userEvent.setup({ delay: null }).click(await screen.findByRole('button', { name: 'Log out' }));
    expect(fake.auth.signOut).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('Signed out')).toBeInTheDocument();
  });

  it('stops listening when unmounted', async () => {
    const fake = installFakeSupabase();
    const { unmount } = renderProvider();
    await screen.findByText('Signed out');
    expect(fake.listenerCount()).toBe(1);
    unmount();
    expect(fake.listenerCount()).toBe(0);
  });

  it('a visitor with no stored session is signed out at once: neither the settings nor supabase-js are fetched', async () => {
    setSupabaseForTests(undefined);
    const fetch = vi.spyOn(globalThis, 'fetch');
    renderProvider();
    expect(screen.getByText('Signed out')).toBeInTheDocument();
    expect(screen.getByText('ready')).toBeInTheDocument();
    expect(screen.queryByTestId('page-skeleton')).not.toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(fetch).not.toHaveBeenCalled();
    expect(hasSupabaseClient()).toBe(false);
  });

  it('a visitor who signs in later (the client is made then) is followed', async () => {
    setSupabaseForTests(undefined);
    renderProvider();
    expect(screen.getByText('Signed out')).toBeInTheDocument();
    const fake = installFakeSupabase(makeSession(makeUser('bwalya@example.com')));
    await act(async () => {
      await getSupabase();
    });
    expect(await screen.findByText('Signed in as bwalya@example.com')).toBeInTheDocument();
    expect(fake.auth.onAuthStateChange).toHaveBeenCalled();
  });

  it('a stored session is picked up: the client is loaded at once', async () => {
    setSupabaseForTests(undefined);
    localStorage.setItem('sb-127-auth-token', '{}');
    const fetch = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderProvider();
    expect(screen.getByTestId('page-skeleton')).toBeInTheDocument();
    expect(await screen.findByText('Signed out')).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledWith('/config.json', expect.anything());
    localStorage.clear();
  });

  it('shows the content signed out when the settings cannot be loaded', async () => {
    setSupabaseForTests(undefined);
    localStorage.setItem('sb-127-auth-token', '{}');
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderProvider();
    expect(await screen.findByText('Signed out')).toBeInTheDocument();
    expect(error).toHaveBeenCalled();
    localStorage.clear();
  });

  it('useAuth outside an AuthProvider throws', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<WhoAmI />)).toThrow('useAuth must be used within an AuthProvider');
  });
});
