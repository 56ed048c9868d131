import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { fakeFunctions } from '../../test/fakeFunctions';
import { WaitlistForm } from './WaitlistForm';
import { currentRef, placeOf, whatsAppLink } from './referral';

const shareUrl = 'https://salaula.example/impact?ref=abcdefgh23';

describe('the referral loop on the waitlist form', { timeout: 20_000 }, () => {
  afterEach(() => {
    setSupabaseForTests(undefined);
    sessionStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it('sends the ?ref= the page was opened with and shows the place, the link, WhatsApp and copy under the success words', async () => {
    window.history.replaceState(null, '', '/impact?ref=zyxwvuts23');
    const fake = fakeFunctions(() => ({ status: 200, body: { success: true, message: "You're on the list!", position: 1412, shareUrl } }));
    render(<WaitlistForm programName="Upcycling Initiative" errorMessage="Could not join." successDetail="We'll be in touch soon." />);
    window.history.replaceState(null, '', '/impact'); // the ref is kept after moving on
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByRole('textbox', { name: /Email address/ }), 'mwila@example.com');
    await user.click(screen.getByRole('button', { name: /Join the Waitlist/ }));
    expect(await screen.findByRole('status')).toHaveTextContent("You're on the list!");
    expect(fake.calls[0].body.ref).toBe('zyxwvuts23');
    expect(screen.getByTestId('wl-position')).toHaveTextContent('1,412');
    expect(screen.getByRole('textbox', { name: 'Your personal link' })).toHaveValue(shareUrl);
    const wa = screen.getByRole('link', { name: 'Share on WhatsApp' });
    expect(wa.getAttribute('href')).toBe(whatsAppLink('Upcycling Initiative', shareUrl));
    expect(decodeURIComponent(wa.getAttribute('href')!)).toContain(shareUrl);
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
  });

  it('shows only the success words when the answer has no place', async () => {
    fakeFunctions(() => ({ status: 200, body: { success: true, message: "You're on the list!" } }));
    render(<WaitlistForm programName="Upcycling Initiative" errorMessage="Could not join." successDetail="We'll be in touch soon." />);
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByRole('textbox', { name: /Email address/ }), 'mwila@example.com');
    await user.click(screen.getByRole('button', { name: /Join the Waitlist/ }));
    expect(await screen.findByRole('status')).toHaveTextContent("You're on the list!");
    expect(screen.queryByRole('link', { name: 'Share on WhatsApp' })).not.toBeInTheDocument();
  });

  it('drops a malformed ref or answer', () => {
    expect(currentRef('?ref=<script>')).toBe('');
    expect(currentRef('?ref=ABCDEFGH23')).toBe('');
    expect(placeOf({ position: -1, shareUrl: 'javascript:alert(1)' })).toEqual({});
    expect(placeOf(null)).toEqual({});
    expect(placeOf({ position: 3, shareUrl })).toEqual({ position: 3, shareUrl });
  });
});
