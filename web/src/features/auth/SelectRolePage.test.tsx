import { Suspense } from 'react';
import { configure, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { AuthProvider } from './AuthProvider';
import SelectRolePage from './SelectRolePage';
import { installFakeSupabase, makeSession } from './testing/fakeSupabase';
import { renderAuth } from './testing/renderAuth';

// Several suites share this machine: typing through user-event can take seconds.
vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(() => {
  setSupabaseForTests(undefined);
  vi.restoreAllMocks();
});

const seller = () => screen.getByRole('button', { name: /Become a Seller/ });
const buyer = () => screen.getByRole('button', { name: /Become a Buyer/ });
const proceed = () => screen.getByRole('button', { name: /^PROCEED/ });

async function openSignedIn() {
  installFakeSupabase(makeSession());
  renderAuth('/select_role');
  await screen.findByRole('heading', { name: 'What brings you to Salaula?' });
}

describe('/select_role', () => {
  it('sends a visitor to sign in first, and back here after', async () => {
    installFakeSupabase();
    renderAuth('/select_role');
    expect(await screen.findByRole('heading', { name: 'WELCOME BACK!' })).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Email'), 'chanda@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'SIGN IN' }));
    expect(await screen.findByRole('heading', { name: 'What brings you to Salaula?' })).toBeInTheDocument();
  });

  it('shows two unselected cards in a labelled group and PROCEED disabled', async () => {
    await openSignedIn();
    expect(screen.getByRole('group', { name: 'What brings you to Salaula?' })).toBeInTheDocument();
    expect(seller()).toHaveAttribute('aria-pressed', 'false');
    expect(buyer()).toHaveAttribute('aria-pressed', 'false');
    expect(proceed()).toBeDisabled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('selects a card, switches to the other, and clears when the chosen card is clicked again', async () => {
    await openSignedIn();
    await userEvent.setup({ delay: null }).click(seller());
    expect(seller()).toHaveAttribute('aria-pressed', 'true');
    expect(proceed()).toBeEnabled();
    await userEvent.setup({ delay: null }).click(buyer());
    expect(buyer()).toHaveAttribute('aria-pressed', 'true');
    expect(seller()).toHaveAttribute('aria-pressed', 'false');
    await userEvent.setup({ delay: null }).click(buyer());
    expect(buyer()).toHaveAttribute('aria-pressed', 'false');
    expect(proceed()).toBeDisabled();
  });

  it('works from the keyboard', async () => {
    await openSignedIn();
    const user = userEvent.setup({ delay: null });
    seller().focus();
    await user.keyboard(' ');
    expect(seller()).toHaveAttribute('aria-pressed', 'true');
    await user.tab();
    expect(buyer()).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(buyer()).toHaveAttribute('aria-pressed', 'true');
    await user.tab();
    expect(proceed()).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Now at /buyersignup?role=buyer')).toBeInTheDocument();
  });

  it('PROCEED takes a seller to /sellersignup?role=seller', async () => {
    await openSignedIn();
    await userEvent.setup({ delay: null }).click(seller());
    await userEvent.setup({ delay: null }).click(proceed());
    expect(await screen.findByText('Now at /sellersignup?role=seller')).toBeInTheDocument();
  });

  it('PROCEED takes a buyer to /buyersignup?role=buyer', async () => {
    await openSignedIn();
    await userEvent.setup({ delay: null }).click(buyer());
    await userEvent.setup({ delay: null }).click(proceed());
    expect(await screen.findByText('Now at /buyersignup?role=buyer')).toBeInTheDocument();
  });

  it('shows PROCEEDING... and locks the choice while the next page loads', async () => {
    installFakeSupabase(makeSession());
    const never = new Promise(() => {});
    function Loading(): never {
      throw never;
    }
    render(
      <AuthProvider>
        <MemoryRouter initialEntries={['/select_role']}>
          <Suspense fallback={<p>fallback</p>}>
            <Routes>
              <Route path="/select_role" element={<SelectRolePage />} />
              <Route path="/buyersignup" element={<Loading />} />
            </Routes>
          </Suspense>
        </MemoryRouter>
      </AuthProvider>,
    );
    await userEvent.setup({ delay: null }).click(await screen.findByRole('button', { name: /Become a Buyer/ }));
    await userEvent.setup({ delay: null }).click(proceed());
    expect(await screen.findByRole('button', { name: 'PROCEEDING...' })).toBeDisabled();
    expect(buyer()).toBeDisabled();
  });
});
