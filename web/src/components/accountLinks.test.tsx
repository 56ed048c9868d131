import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthProvider } from '../features/auth/AuthProvider';
import { installFakeSupabase, makeSession } from '../features/auth/testing/fakeSupabase';
import { setSupabaseForTests } from '../lib/supabase';
import { PageHeader } from './PageHeader';
import { TopNav } from './TopNav';

function Where() {
  const { pathname } = useLocation();
  return <output data-testid="location">{pathname}</output>;
}

function renderSignedIn(signedIn: boolean) {
  const fake = installFakeSupabase(signedIn ? makeSession() : null);
  render(
    <AuthProvider>
      <MemoryRouter initialEntries={['/about']}>
        <Routes>
          <Route path="*" element={<><TopNav /><PageHeader title="About" /><Where /></>} />
        </Routes>
      </MemoryRouter>
    </AuthProvider>,
  );
  return fake;
}

afterEach(() => setSupabaseForTests(undefined));

describe('account links', { timeout: 60_000 }, () => {
  it('lead a signed-in person to /account; the top bar says My account; the side menu shows My Account and Sign Out', async () => {
    const fake = renderSignedIn(true);
    const icons = await screen.findAllByRole('link', { name: 'Account' }, { timeout: 15_000 });
    expect(icons.map((a) => a.getAttribute('href'))).toEqual(['/account', '/account']);
    const top = screen.getByRole('navigation', { name: 'Top' });
    expect(within(top).getAllByRole('link', { name: 'My account' }).map((a) => a.getAttribute('href'))).toEqual(['/account', '/account']);
    expect(within(top).queryByRole('link', { name: 'Sign up' })).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Menu' }, { timeout: 15_000 });
    expect(within(menu).getByRole('link', { name: 'My Account' })).toHaveAttribute('href', '/account');
    expect(within(menu).queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();
    await user.click(within(menu).getByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(fake.auth.signOut).toHaveBeenCalled());
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('lead a visitor to sign in (not sign up); the top bar offers Sign up; the side menu shows Sign In and no Sign Out', async () => {
    renderSignedIn(false);
    const icons = await screen.findAllByRole('link', { name: 'Account' }, { timeout: 15_000 });
    expect(icons.map((a) => a.getAttribute('href'))).toEqual(['/sign_up?mode=login', '/sign_up?mode=login']);
    const top = screen.getByRole('navigation', { name: 'Top' });
    expect(within(top).getAllByRole('link', { name: 'Sign up' }).map((a) => a.getAttribute('href'))).toEqual(['/sign_up', '/sign_up']);
    expect(within(top).queryByRole('link', { name: 'My account' })).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Menu' }, { timeout: 15_000 });
    expect(within(menu).getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/sign_up?mode=login');
    expect(within(menu).queryByRole('button', { name: 'Sign Out' })).not.toBeInTheDocument();
  });
});
