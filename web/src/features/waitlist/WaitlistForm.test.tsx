import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { fakeFunctions } from '../../test/fakeFunctions';
import { WaitlistForm } from './WaitlistForm';
import WardrobeClearancePage from './WardrobeClearancePage';

function renderForm() {
  render(
    <WaitlistForm programName="Upcycling Initiative" errorMessage="Could not join waitlist. Please try again." successDetail="We'll be in touch soon." />,
  );
  return userEvent.setup({ delay: null });
}

const emailBox = () => screen.getByRole('textbox', { name: /Email address/ });
const joinButton = () => screen.getByRole('button', { name: /Join the Waitlist|Joining\.\.\./ });

describe('WaitlistForm', { timeout: 20_000 }, () => {
  let errorLog: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    errorLog = vi.spyOn(console, 'error').mockImplementation(() => {});
    window.history.replaceState(null, '', '/impact?utm_source=whatsapp&utm_medium=chat&utm_campaign=launch&utm_term=thrift&utm_content=status');
  });
  afterEach(() => {
    errorLog.mockRestore();
    setSupabaseForTests(undefined);
    window.history.replaceState(null, '', '/');
  });

  it('is a required e-mail field with a join button', () => {
    fakeFunctions();
    renderForm();
    expect(emailBox()).toBeRequired();
    expect(emailBox()).toHaveAttribute('type', 'email');
    expect(joinButton()).toHaveTextContent('Join the Waitlist');
  });

  it('silently ignores a blank or whitespace-only e-mail', async () => {
    const { calls } = fakeFunctions();
    const user = renderForm();
    await user.click(joinButton()); // the browser's required check aside, nothing is sent
    await user.type(emailBox(), '    ');
    await user.click(joinButton());
    expect(calls).toHaveLength(0);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows the e-mail rule for an address the browser lets through', async () => {
    const { calls } = fakeFunctions();
    const user = renderForm();
    await user.type(emailBox(), 'mwila@example');
    await user.click(joinButton());
    expect(screen.getByText('Please enter a valid email')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await user.type(emailBox(), '.com');
    expect(screen.queryByText('Please enter a valid email')).not.toBeInTheDocument();
  });

  it('sends the trimmed e-mail with its source, shows Joining... then success and clears the e-mail', async () => {
    const fake = fakeFunctions();
    const user = renderForm();
    await user.type(emailBox(), '  Mwila@Example.com ');
    const release = fake.hold();
    await user.click(joinButton());
    expect(joinButton()).toHaveTextContent('Joining...');
    expect(joinButton()).toBeDisabled();
    release();
    const ok = await screen.findByRole('status');
    expect(ok).toHaveTextContent("You're on the list!");
    expect(ok).toHaveTextContent("We'll be in touch soon.");
    expect(emailBox()).toHaveValue('');
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0].name).toBe('waitlist-signup');
    expect(fake.calls[0].body).toEqual({
      email: 'Mwila@Example.com',
      programName: 'Upcycling Initiative',
      pagePath: '/impact',
      referrer: '',
      utm_source: 'whatsapp',
      utm_medium: 'chat',
      utm_campaign: 'launch',
      utm_term: 'thrift',
      utm_content: 'status',
      ref: '',
      website: '',
    });
  });

  it("shows the page's error message, logs it, and resets the status on the next submit", async () => {
    const fake = fakeFunctions(() => ({ status: 500, body: { error: 'boom' } }));
    const user = renderForm();
    await user.type(emailBox(), 'mwila@example.com');
    await user.click(joinButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not join waitlist. Please try again.');
    expect(errorLog).toHaveBeenCalled();
    expect(emailBox()).toHaveValue('mwila@example.com');
    const release = fake.hold();
    await user.click(joinButton());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    release();
    expect(await screen.findByRole('alert')).toBeInTheDocument();
  });

  it('keeps the bot trap away from people: hidden from screen readers and out of the tab order', () => {
    fakeFunctions();
    const { container } = render(
      <WaitlistForm programName="Upcycling Initiative" errorMessage="x" successDetail="y" />,
    );
    const trap = container.querySelector('input[name="website"]')!;
    expect(trap).toHaveAttribute('tabindex', '-1');
    expect(trap.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Website' })).not.toBeInTheDocument();
  });
});

describe('Wardrobe Clearance page', { timeout: 20_000 }, () => {
  afterEach(() => setSupabaseForTests(undefined));

  it('presents the program and its waitlist with the clearance messages', async () => {
    const fake = fakeFunctions(() => ({ status: 503, body: { error: 'down' } }));
    render(
      <MemoryRouter>
        <WardrobeClearancePage />
      </MemoryRouter>,
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(screen.getByRole('link', { name: /Back to Home/ })).toHaveAttribute('href', '/');
    expect(screen.getByRole('heading', { level: 1, name: 'Join Our Wardrobe Clearance Program' })).toBeInTheDocument();
    for (const title of ['We Pick Up Your Items', 'Get Paid Fast', 'We Handle Everything', 'No Business Setup Required',
      'Convenient Pickup Service', 'Fair Pricing', 'Zero Effort Required']) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    }
    expect(screen.getByText(/Coming Soon/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Join the Waitlist' })).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    await user.type(emailBox(), 'mary@example.com');
    await user.click(joinButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong. Please try again.');
    expect(fake.calls[0].body.programName).toBe('Wardrobe Clearance Program');
  });

  it("says You're on the list! and We'll email you when ready.", async () => {
    fakeFunctions();
    render(
      <MemoryRouter>
        <WardrobeClearancePage />
      </MemoryRouter>,
    );
    const user = userEvent.setup({ delay: null });
    await user.type(emailBox(), 'mary@example.com');
    await user.click(joinButton());
    const ok = await screen.findByRole('status');
    expect(ok).toHaveTextContent("You're on the list!");
    expect(ok).toHaveTextContent("We'll email you when ready.");
  });
});
