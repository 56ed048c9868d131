import { configure, act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Session } from '@supabase/supabase-js';
import { FunctionsFetchError, FunctionsHttpError } from '@supabase/supabase-js';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { authError, installFakeSupabase, makeSession, makeUser, type FakeSupabase } from './testing/fakeSupabase';
import { renderAuth } from './testing/renderAuth';

// Several suites share this machine: typing through user-event can take seconds.
vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

let log: MockInstance<typeof console.log>;
beforeEach(() => {
  log = vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  setSupabaseForTests(undefined);
  vi.restoreAllMocks();
});

/** loginCalls counts the app's login() calls (login only logs). */
const loginCalls = () => log.mock.calls.filter((c) => String(c[0]).startsWith('login')).length;

async function openForm(path = '/sign_up') {
  renderAuth(path);
  await screen.findByRole('button', { name: /^(SIGN IN|CREATE AN ACCOUNT)$/ });
}

async function fill(email: string, password: string) {
  const user = userEvent.setup({ delay: null });
  if (email) await user.type(screen.getByLabelText('Email'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  return user;
}

/** profileError makes get-profile-me fail the way supabase-js reports a non-2xx answer. */
function profileFails(fake: FakeSupabase, status: number, body: unknown) {
  fake.functions.invoke.mockImplementation(async () => ({
    data: null,
    error: new FunctionsHttpError(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })),
  }));
}

describe('/sign_up on load', () => {
  it("shows 'Checking your session...' while the session check runs, then the form", async () => {
    const fake = installFakeSupabase();
    let finish: () => void = () => {};
    const gate = new Promise<void>((ok) => (finish = ok));
    fake.auth.getSession
      .mockImplementationOnce(async () => ({ data: { session: null }, error: null })) // AuthProvider's read
      .mockImplementationOnce(async () => {
        await gate;
        return { data: { session: null }, error: null };
      });
    renderAuth('/sign_up');
    expect(await screen.findByText('Checking your session...')).toBeInTheDocument();
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    await act(async () => finish());
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(screen.queryByText('Checking your session...')).not.toBeInTheDocument();
  });

  it('sends a signed-in user with a role to /thanks and marks them logged in', async () => {
    const fake = installFakeSupabase(makeSession());
    fake.withRole('buyer');
    renderAuth('/sign_up');
    expect(await screen.findByText('Now at /thanks')).toBeInTheDocument();
    expect(fake.functions.invoke).toHaveBeenCalledWith('get-profile-me', expect.anything());
    expect(loginCalls()).toBe(1);
  });

  it('sends a signed-in user without a role to /select_role', async () => {
    const fake = installFakeSupabase(makeSession());
    fake.withRole(null);
    renderAuth('/sign_up');
    expect(await screen.findByText('What brings you to Salaula?')).toBeInTheDocument();
  });

  it('signs out and shows the form when the profile call fails', async () => {
    const fake = installFakeSupabase(makeSession());
    profileFails(fake, 401, { error: 'invalid JWT' });
    renderAuth('/sign_up');
    expect(await screen.findByRole('heading', { name: 'JOIN US!' })).toBeInTheDocument();
    expect(fake.auth.signOut).toHaveBeenCalled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the form when there is no session, without calling the profile', async () => {
    const fake = installFakeSupabase();
    await openForm();
    expect(fake.functions.invoke).not.toHaveBeenCalled();
  });

  it('honours a safe ?next= for a signed-in user', async () => {
    const fake = installFakeSupabase(makeSession());
    fake.withRole('seller');
    renderAuth('/sign_up?next=%2Fsellersignup%3Frole%3Dseller');
    expect(await screen.findByText('Now at /sellersignup?role=seller')).toBeInTheDocument();
  });
});

describe('/sign_up screen', () => {
  beforeEach(() => {
    installFakeSupabase();
  });

  it('opens in sign-up mode and the text toggle switches between the two modes', async () => {
    await openForm();
    expect(screen.getByRole('heading', { name: 'JOIN US!' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'CREATE AN ACCOUNT' })).toBeInTheDocument();
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('heading', { name: 'WELCOME BACK!' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'SIGN IN' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'CREATE AN ACCOUNT' })).not.toBeInTheDocument();
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByRole('heading', { name: 'JOIN US!' })).toBeInTheDocument();
  });

  it('opens in sign-in mode with ?mode=login or a ?next=', async () => {
    await openForm('/sign_up?mode=login');
    expect(screen.getByRole('heading', { name: 'WELCOME BACK!' })).toBeInTheDocument();
  });

  it('opens in sign-in mode when sent by a protected page', async () => {
    await openForm('/sign_up?next=%2Fselect_role');
    expect(screen.getByRole('heading', { name: 'WELCOME BACK!' })).toBeInTheDocument();
  });

  it('the toggle clears both fields and the banner', async () => {
    const fake = installFakeSupabase();
    fake.auth.signUp.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: authError('User already registered', 422, 'user_already_exists'),
    } as never);
    await openForm();
    const user = await fill('chanda@example.com', 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'CREATE AN ACCOUNT' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('User already registered');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows and hides the password with a labelled button', async () => {
    await openForm();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('shows three social sign-in buttons, all disabled', async () => {
    await openForm();
    const social = screen.getAllByRole('button', { name: /^Continue with / });
    expect(social.map((b) => b.textContent)).toEqual([
      'Continue with Google',
      'Continue with Facebook',
      'Continue with Apple',
    ]);
    social.forEach((b) => expect(b).toBeDisabled());
  });

  it('has labelled fields with the right autocomplete', async () => {
    await openForm();
    expect(screen.getByLabelText('Email')).toHaveAttribute('autocomplete', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('autocomplete', 'new-password');
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByLabelText('Password')).toHaveAttribute('autocomplete', 'current-password');
  });
});

describe('/sign_up validation', () => {
  let fake: FakeSupabase;
  beforeEach(() => {
    fake = installFakeSupabase();
  });

  it('requires the e-mail and the password', async () => {
    await openForm();
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'CREATE AN ACCOUNT' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(fake.auth.signUp).not.toHaveBeenCalled();
  });

  it('treats a whitespace-only e-mail as empty', async () => {
    await openForm();
    await fill('   ', 'secret-pass');
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'CREATE AN ACCOUNT' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
  });

  it.each(['chanda', 'chanda@example', 'chanda @example.com', '@example.com'])('rejects the e-mail %s', async (email) => {
    await openForm('/sign_up?mode=login');
    await fill(email, 'secret-pass');
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'SIGN IN' }));
    expect(screen.getByText('Please enter a valid email')).toBeInTheDocument();
    expect(fake.auth.signInWithPassword).not.toHaveBeenCalled();
  });

  it('has no length rule on the client: a one-letter password goes to the service', async () => {
    await openForm();
    const user = await fill(' chanda@example.com ', 'a');
    await user.click(screen.getByRole('button', { name: 'CREATE AN ACCOUNT' }));
    expect(fake.auth.signUp).toHaveBeenCalledWith({ email: 'chanda@example.com', password: 'a' });
  });

  it("editing a field clears that field's error", async () => {
    await openForm();
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'CREATE AN ACCOUNT' }));
    await userEvent.setup({ delay: null }).type(screen.getByLabelText('Email'), 'c');
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
  });
});

describe('/sign_up sign-up', () => {
  it('creates the account, marks the user logged in and goes to /select_role', async () => {
    const fake = installFakeSupabase();
    await openForm();
    const user = await fill('chanda@example.com', 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'CREATE AN ACCOUNT' }));
    expect(await screen.findByText('What brings you to Salaula?')).toBeInTheDocument();
    expect(fake.auth.signUp).toHaveBeenCalledTimes(1);
    expect(loginCalls()).toBe(1);
  });

  it("shows the service's message in a red banner, keeps the fields and ends loading", async () => {
    const fake = installFakeSupabase();
    fake.auth.signUp.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: authError('Password should be at least 8 characters.', 422, 'weak_password'),
    } as never);
    await openForm();
    const user = await fill('chanda@example.com', 'short');
    await user.click(screen.getByRole('button', { name: 'CREATE AN ACCOUNT' }));
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Password should be at least 8 characters.');
    expect(banner).toHaveClass('fk-alert-error'); // the red banner
    expect(screen.getByRole('button', { name: 'CREATE AN ACCOUNT' })).toBeEnabled();
    expect(screen.getByLabelText('Email')).toHaveValue('chanda@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('short');
    expect(loginCalls()).toBe(0);
  });

  it('disables the form while the request runs', async () => {
    const fake = installFakeSupabase();
    let finish: () => void = () => {};
    fake.auth.signUp.mockImplementationOnce(
      () =>
        new Promise((ok) => {
          finish = () => ok({ data: { user: null, session: null }, error: authError('Network down', 0, 'unknown') } as never);
        }),
    );
    await openForm();
    const user = await fill('chanda@example.com', 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'CREATE AN ACCOUNT' }));
    expect(screen.getByRole('button', { name: 'CREATE AN ACCOUNT' })).toBeDisabled();
    expect(screen.getByLabelText('Email')).toBeDisabled();
    await act(async () => finish());
    expect(screen.getByRole('button', { name: 'CREATE AN ACCOUNT' })).toBeEnabled();
    expect(screen.getByRole('alert')).toHaveTextContent('Network down');
  });

  it('asks the person to confirm their e-mail when the service returns no session', async () => {
    const fake = installFakeSupabase();
    fake.auth.signUp.mockResolvedValueOnce({ data: { user: makeUser(), session: null }, error: null } as never);
    await openForm();
    const user = await fill('chanda@example.com', 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'CREATE AN ACCOUNT' }));
    expect(
      await screen.findByText('We have sent a confirmation link to chanda@example.com. Open it, then sign in.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'WELCOME BACK!' })).toBeInTheDocument();
    expect(loginCalls()).toBe(0);
  });

  it('goes to a safe ?next= instead of /select_role', async () => {
    installFakeSupabase();
    await openForm('/sign_up?next=%2Fbuyersignup%3Frole%3Dbuyer');
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Sign up' }));
    const user = await fill('chanda@example.com', 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'CREATE AN ACCOUNT' }));
    expect(await screen.findByText('Now at /buyersignup?role=buyer')).toBeInTheDocument();
  });
});

describe('/sign_up sign-in', () => {
  async function signInAs(path = '/sign_up?mode=login') {
    await openForm(path);
    const user = await fill('chanda@example.com', 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'SIGN IN' }));
  }

  it('with a role goes to /index', async () => {
    const fake = installFakeSupabase();
    fake.withRole('buyer');
    await signInAs();
    expect(await screen.findByText('Now at /index')).toBeInTheDocument();
    expect(fake.auth.signInWithPassword).toHaveBeenCalledWith({ email: 'chanda@example.com', password: 'secret-pass' });
    expect(loginCalls()).toBe(1);
  });

  it('without a role goes to /select_role', async () => {
    const fake = installFakeSupabase();
    fake.withRole(null);
    await signInAs();
    expect(await screen.findByText('What brings you to Salaula?')).toBeInTheDocument();
    expect(loginCalls()).toBe(1);
  });

  it("shows 'Invalid login credentials' from the service in the red banner", async () => {
    const fake = installFakeSupabase();
    fake.auth.signInWithPassword.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: authError('Invalid login credentials', 400, 'invalid_credentials'),
    } as never);
    await signInAs();
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid login credentials');
    expect(screen.getByRole('button', { name: 'SIGN IN' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Send the confirmation e-mail again' })).not.toBeInTheDocument();
    expect(fake.functions.invoke).not.toHaveBeenCalled();
    expect(loginCalls()).toBe(0);
  });

  it('for an unconfirmed account, says what to do and sends the confirmation e-mail again, or says when it can be asked for', async () => {
    const notConfirmed =
      'Your e-mail address is not confirmed yet. Open the link in the e-mail we sent you when you signed up, or ask for the confirmation e-mail again.';
    const wait = 'For security purposes, you can only request this after 42 seconds.';
    const fake = installFakeSupabase();
    fake.auth.signInWithPassword.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: authError(notConfirmed, 400, 'email_not_confirmed'),
    } as never);
    fake.auth.resend
      .mockResolvedValueOnce({ data: {}, error: null })
      .mockResolvedValueOnce({ data: null, error: authError(wait, 429, 'over_email_send_rate_limit') });
    await signInAs();
    expect(await screen.findByRole('alert')).toHaveTextContent(notConfirmed);
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Send the confirmation e-mail again' }));
    expect(await screen.findByText('We have sent the confirmation link to chanda@example.com again. Open it, then sign in.')).toBeInTheDocument();
    expect(fake.auth.resend).toHaveBeenCalledWith({ type: 'signup', email: 'chanda@example.com', options: { emailRedirectTo: `${window.location.origin}/sign_up` } });
    // Held back by the service: its words say when, and nothing claims it went.
    await user.click(screen.getByRole('button', { name: 'Send the confirmation e-mail again' }));
    expect(await screen.findByText(wait)).toBeInTheDocument();
    expect(screen.queryByText(/We have sent the confirmation link/)).not.toBeInTheDocument();
  });

  it("reports a failed profile fetch with the function's reason", async () => {
    const fake = installFakeSupabase();
    profileFails(fake, 500, { error: 'Could not read your profile. Please try again.' });
    await signInAs();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Login successful, but could not fetch profile: Could not read your profile. Please try again.',
    );
    expect(loginCalls()).toBe(1);
    expect(screen.getByRole('button', { name: 'SIGN IN' })).toBeEnabled();
  });

  it("reports a profile fetch that never reached the server with the client's reason", async () => {
    const fake = installFakeSupabase();
    fake.functions.invoke.mockResolvedValueOnce({ data: null, error: new FunctionsFetchError(new TypeError('Failed to fetch')) });
    await signInAs();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Login successful, but could not fetch profile: Failed to send a request to the Edge Function',
    );
  });

  it('goes to a safe ?next= instead of /index', async () => {
    const fake = installFakeSupabase();
    fake.withRole('buyer');
    await signInAs('/sign_up?next=%2Fsellersignup%3Frole%3Dseller');
    expect(await screen.findByText('Now at /sellersignup?role=seller')).toBeInTheDocument();
  });

  it.each(['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'select_role'])(
    'ignores the unsafe ?next=%s',
    async (next) => {
      const fake = installFakeSupabase();
      fake.withRole('buyer');
      await signInAs(`/sign_up?next=${encodeURIComponent(next)}`);
      expect(await screen.findByText('Now at /index')).toBeInTheDocument();
    },
  );
});

describe('/sign_up forgot password', () => {
  it('is offered in sign-in mode only', async () => {
    installFakeSupabase();
    await openForm();
    expect(screen.queryByRole('button', { name: 'Forgot password?' })).not.toBeInTheDocument();
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('button', { name: 'Forgot password?' })).toBeInTheDocument();
  });

  it('sends a reset link to the e-mail and says so without telling whether the account exists', async () => {
    const fake = installFakeSupabase();
    await openForm('/sign_up?mode=login');
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Email'), 'chanda@example.com');
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('chanda@example.com');
    await user.click(screen.getByRole('button', { name: 'SEND RESET LINK' }));
    expect(await screen.findByText(/If an account exists for chanda@example.com, we have sent it a link/)).toBeInTheDocument();
    expect(fake.auth.resetPasswordForEmail).toHaveBeenCalledWith('chanda@example.com', {
      redirectTo: `${window.location.origin}/reset_password`,
    });
  });

  it("checks the e-mail first and shows the service's error", async () => {
    const fake = installFakeSupabase();
    fake.auth.resetPasswordForEmail.mockResolvedValueOnce({
      data: null,
      error: authError('Request rate limit reached', 429, 'over_request_rate_limit'),
    } as never);
    await openForm('/sign_up?mode=login');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    await user.click(screen.getByRole('button', { name: 'SEND RESET LINK' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'SEND RESET LINK' }));
    expect(screen.getByText('Please enter a valid email')).toBeInTheDocument();
    expect(fake.auth.resetPasswordForEmail).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'chanda@example.com');
    await user.click(screen.getByRole('button', { name: 'SEND RESET LINK' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Request rate limit reached');
  });

  it('goes back to sign in', async () => {
    installFakeSupabase();
    await openForm('/sign_up?mode=login');
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Forgot password?' }));
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(screen.getByRole('heading', { name: 'WELCOME BACK!' })).toBeInTheDocument();
  });
});

describe('/sign_up layout', () => {
  it('keeps the social block described for screen readers', async () => {
    installFakeSupabase();
    await openForm();
    const main = screen.getByRole('main');
    expect(within(main).getByText('Signing in with Google, Facebook or Apple is coming soon.')).toBeInTheDocument();
  });

  it('shows an error the service put in the URL of an e-mailed link', async () => {
    installFakeSupabase();
    await openForm('/sign_up#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired');
    expect(screen.getByRole('alert')).toHaveTextContent('Email link is invalid or has expired');
    expect(screen.getByRole('heading', { name: 'WELCOME BACK!' })).toBeInTheDocument();
  });

  it('never shows the green banner without a reason', async () => {
    installFakeSupabase(null as Session | null);
    await openForm();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('/sign_up without supabase-js', () => {
  const configCalls = (spy: MockInstance<typeof fetch>) => spy.mock.calls.filter((c) => String(c[0]).includes('/config.json')).length;
  afterEach(() => localStorage.clear());

  it('shows the form at once when no session is stored, and loads the client only when the form is used', async () => {
    setSupabaseForTests(undefined);
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>(() => {}));
    renderAuth('/sign_up');
    expect(screen.getByRole('heading', { name: 'JOIN US!' })).toBeInTheDocument();
    expect(screen.queryByText('Checking your session...')).not.toBeInTheDocument();
    expect(configCalls(fetchSpy)).toBe(0);
    await userEvent.setup({ delay: null }).click(screen.getByLabelText('Email'));
    expect(configCalls(fetchSpy)).toBe(1);
  });

  it('with a stored session, loads the client at once and shows no form until the session is read', async () => {
    setSupabaseForTests(undefined);
    localStorage.setItem('sb-127-auth-token', '{}');
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>(() => {}));
    renderAuth('/sign_up');
    await waitFor(() => expect(configCalls(fetchSpy)).toBe(1));
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'JOIN US!' })).not.toBeInTheDocument();
  });
});

describe('/sign_up when the sign-in client cannot be downloaded', () => {
  it('says the connection is the problem and keeps what was typed', async () => {
    setSupabaseForTests(undefined);
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    renderAuth('/sign_up');
    const user = await fill('chanda@example.com', 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'CREATE AN ACCOUNT' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not reach Salaula. Check your internet connection');
    expect(screen.getByLabelText('Email')).toHaveValue('chanda@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('secret-pass');
    expect(screen.getByRole('button', { name: 'CREATE AN ACCOUNT' })).toBeEnabled();
  });
});
