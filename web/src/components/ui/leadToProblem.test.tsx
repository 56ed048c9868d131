import { useState, type FormEvent } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Alert, TextField } from '.';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLeadToProblem } from '../../lib/leadToProblem';

/** A form like the app's: a banner at the top, fields further down, a server that may refuse. */
function Form({ server }: { server: () => Promise<string> }) {
  const leadRef = useLeadToProblem();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState('');
  const [values, setValues] = useState({ name: 'Chipo', email: '', phone: '' });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBanner('');
    const found: Record<string, string> = {};
    if (!values.name) found.name = 'Full name is required';
    if (!values.email) found.email = 'Email is required';
    if (!values.phone) found.phone = 'Phone number is required';
    setErrors(found);
    if (Object.keys(found).length) return;
    setBanner(await server());
  };
  const field = (k: keyof typeof values, label: string) => (
    <TextField
      label={label}
      value={values[k]}
      onChange={(e) => setValues({ ...values, [k]: e.target.value })}
      error={Boolean(errors[k])}
      helperText={errors[k]}
    />
  );
  return (
    <form ref={leadRef} noValidate onSubmit={submit} aria-label="Test form">
      {Object.keys(errors).length > 0 && <Alert severity="error">{Object.values(errors).join('. ')}</Alert>}
      {banner && <Alert severity="error">{banner}</Alert>}
      {field('name', 'Full name')}
      {field('email', 'Email')}
      {field('phone', 'Phone number')}
      <button type="submit">Send</button>
    </form>
  );
}

describe('useLeadToProblem', () => {
  const scrolled: Element[] = [];
  beforeEach(() => {
    scrolled.length = 0;
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('moves focus to the first field in error and scrolls it into view; the summary is announced', async () => {
    render(<Form server={() => Promise.resolve('')} />);
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    const email = screen.getByRole('textbox', { name: 'Email' });
    await waitFor(() => expect(email).toHaveFocus());
    expect(scrolled).toContain(email);
    expect(screen.getByRole('alert')).toHaveTextContent('Email is required. Phone number is required');
    // Fixing the first leads to the next one on the following submit.
    await userEvent.type(email, 'chipo@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Phone number' })).toHaveFocus());
  });

  it('brings the server error banner into view and focuses it when the answer arrives', async () => {
    let refuse: (m: string) => void = () => {};
    render(<Form server={() => new Promise((r) => (refuse = r))} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'chipo@example.com');
    await userEvent.type(screen.getByRole('textbox', { name: 'Phone number' }), '0971234567');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await new Promise((r) => setTimeout(r, 20));
    expect(scrolled).toEqual([]); // nothing wrong yet: focus stays where it was
    refuse('The server is busy: please try again in a minute');
    const banner = await screen.findByRole('alert');
    await waitFor(() => expect(banner).toHaveFocus());
    expect(banner).toHaveTextContent('The server is busy');
    expect(scrolled).toContain(banner);
  });
});
