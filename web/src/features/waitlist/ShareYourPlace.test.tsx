import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { fakeFunctions } from '../../test/fakeFunctions';
import { CHECK_EMAIL, WaitlistForm } from './WaitlistForm';
import { confirmedPlace, currentRef, whatsAppLink } from './referral';

describe('the referral loop on the waitlist form', { timeout: 20_000 }, () => {
  afterEach(() => {
    setSupabaseForTests(undefined);
    sessionStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it('sends the ?ref= the page was opened with and answers alike for every address, with no place on screen', async () => {
    window.history.replaceState(null, '', '/impact?ref=zyxwvuts23');
    const fake = fakeFunctions(() => ({ status: 200, body: { success: true, message: "You're on the list!" } }));
    render(<WaitlistForm programName="Upcycling Initiative" errorMessage="Could not join." successDetail="We'll be in touch soon." />);
    window.history.replaceState(null, '', '/impact'); // the ref is kept after moving on
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByRole('textbox', { name: /Email address/ }), 'mwila@example.com');
    await user.click(screen.getByRole('button', { name: /Join the Waitlist/ }));
    expect(await screen.findByRole('status')).toHaveTextContent("You're on the list!");
    expect(screen.getByRole('status')).toHaveTextContent(CHECK_EMAIL);
    expect(fake.calls[0].body.ref).toBe('zyxwvuts23');
    expect(screen.queryByRole('link', { name: 'Share on WhatsApp' })).not.toBeInTheDocument();
  });

  it("shows the place, the link on the page's own address, WhatsApp and copy after the confirm link", () => {
    window.history.replaceState(null, '', '/impact#wl_place=1412&wl_ref=abcdefgh23');
    fakeFunctions();
    render(<WaitlistForm programName="Upcycling Initiative" errorMessage="Could not join." successDetail="We'll be in touch soon." />);
    const shareUrl = `${window.location.origin}/impact?ref=abcdefgh23`;
    expect(screen.getByRole('status')).toHaveTextContent('Your address is confirmed');
    expect(screen.getByTestId('wl-position')).toHaveTextContent('1,412');
    expect(screen.getByRole('textbox', { name: 'Your personal link' })).toHaveValue(shareUrl);
    const wa = screen.getByRole('link', { name: 'Share on WhatsApp' });
    expect(wa.getAttribute('href')).toBe(whatsAppLink('Upcycling Initiative', shareUrl));
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
  });

  it('builds the personal link from the address the page was opened at', () => {
    const at = { hash: '#wl_place=3&wl_ref=abcdefgh23', pathname: '/wardrobeclearance' };
    expect(confirmedPlace({ ...at, origin: 'http://192.168.1.20:8080' })).toEqual({
      position: 3,
      shareUrl: 'http://192.168.1.20:8080/wardrobeclearance?ref=abcdefgh23',
    });
    expect(confirmedPlace({ ...at, origin: 'https://salaula.co.zm' }).shareUrl).toBe('https://salaula.co.zm/wardrobeclearance?ref=abcdefgh23');
  });

  it('drops a malformed ref or answer', () => {
    expect(currentRef('?ref=<script>')).toBe('');
    expect(currentRef('?ref=ABCDEFGH23')).toBe('');
    const at = { origin: 'https://salaula.example', pathname: '/impact' };
    expect(confirmedPlace({ ...at, hash: '#wl_place=-1&wl_ref=abcdefgh23' })).toEqual({});
    expect(confirmedPlace({ ...at, hash: '#wl_place=2&wl_ref=javascript:alert(1)' })).toEqual({});
    expect(confirmedPlace({ ...at, hash: '' })).toEqual({});
  });
});
