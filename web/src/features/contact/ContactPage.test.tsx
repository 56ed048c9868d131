import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSupabaseForTests } from '../../lib/supabase';
import { DEFAULT_SITE_SETTINGS, setSiteSettingsForTests } from '../../lib/siteSettings';
import { fakeFunctions, type FakeAnswer } from '../../test/fakeFunctions';
import { FORMS_CHANNEL, queuedForms } from '../../lib/formQueue';
import ContactPage from './ContactPage';

function renderPage() {
  render(
    <MemoryRouter>
      <ContactPage />
    </MemoryRouter>,
  );
  return userEvent.setup({ delay: null });
}

/** fill puts text into the field labelled label, as a paste. */
async function fill(user: ReturnType<typeof userEvent.setup>, label: string, text: string) {
  await user.click(screen.getByLabelText(label));
  await user.paste(text);
}

async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  await fill(user, 'First Name', '  Chanda ');
  await fill(user, 'Last Name', 'Mwale');
  await fill(user, 'Email', ' chanda@example.com ');
  await fill(user, 'Phone Number', '+260 977 123456');
  await user.click(screen.getByRole('radio', { name: 'Careers' }));
  await fill(user, 'Write Your Message Here', 'Are you hiring designers in Lusaka?');
}

const sendButton = () => screen.getByRole('button', { name: /Send Message|Sending\.\.\./ });

/** sendOffline sends a valid message with the browser offline (navigator.onLine mocked): the form says it waits. */
async function sendOffline() {
  const { calls } = fakeFunctions();
  const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  const user = renderPage();
  await fillValid(user);
  await user.click(sendButton());
  expect(await screen.findByRole('status')).toHaveTextContent('No internet connection.');
  return { calls, onLine, user };
}

describe('Contact Us page', { timeout: 20_000 }, () => {
  let errorLog: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    errorLog = vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    errorLog.mockRestore();
    setSupabaseForTests(undefined);
    setSiteSettingsForTests(undefined);
  });

  it("shows the founders' contact details from the site settings", async () => {
    fakeFunctions();
    setSiteSettingsForTests({
      ...DEFAULT_SITE_SETTINGS,
      supportEmail: 'hello@salaula.co.zm',
      phone: { e164: '+260977123456', display: '097 712 3456', link: 'tel:+260977123456' },
      whatsapp: { e164: '+260965550101', display: '096 555 0101', link: 'https://wa.me/260965550101' },
      address: 'Plot 12, Cairo Road, Lusaka',
      social: [{ network: 'facebook', url: 'https://www.facebook.com/salaula.real' }, { network: 'youtube', comingSoon: true }],
    });
    renderPage();
    const info = screen.getByRole('region', { name: 'Contact Information' });
    expect(await within(info).findByRole('link', { name: '097 712 3456' })).toHaveAttribute('href', 'tel:+260977123456');
    expect(within(info).getByRole('link', { name: 'WhatsApp 096 555 0101' })).toHaveAttribute('href', 'https://wa.me/260965550101');
    expect(within(info).getByRole('link', { name: 'hello@salaula.co.zm' })).toHaveAttribute('href', 'mailto:hello@salaula.co.zm');
    expect(within(info).getByText('Plot 12, Cairo Road, Lusaka')).toBeInTheDocument();
    const social = within(info).getAllByRole('link', { name: /opens in a new tab/ });
    expect(social.map((a) => a.getAttribute('href'))).toEqual(['https://www.facebook.com/salaula.real']);
  });

  it('shows the contact information and the empty form', async () => {
    fakeFunctions();
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeInTheDocument();
    expect(screen.getByText('Any question or remarks? Just write us a message!')).toBeInTheDocument();
    const info = screen.getByRole('region', { name: 'Contact Information' });
    // Numbers never set are not shown (no placeholder number).
    expect(within(info).queryByRole('link', { name: /^0\d\d / })).toBeNull();
    expect(within(info).queryByRole('link', { name: /WhatsApp/ })).toBeNull();
    // The support e-mail comes from /config.json.
    expect(await within(info).findByRole('link', { name: /help@salaula\.test/ })).toHaveAttribute('href', 'mailto:help@salaula.test');
    expect(within(info).getByText('New Kasama, Lusaka Zambia')).toBeInTheDocument();
    const social = within(info).getAllByRole('link', { name: /opens in a new tab/ });
    expect(social).toHaveLength(4);
    for (const a of social) expect(a).toHaveAttribute('target', '_blank');
    const subjects = within(screen.getByRole('radiogroup', { name: 'Select Subject' })).getAllByRole('radio');
    expect(subjects.map((r) => r.closest('label')?.textContent)).toEqual(['Investment Inquiry', 'Unsolved Issue', 'Careers', 'General Inquiry', 'Other']);
    expect(screen.getByLabelText('Write Your Message Here')).toHaveAttribute('rows', '5');
    expect(sendButton()).toHaveTextContent('Send Message');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows each field error on submit and clears it when the field is edited', async () => {
    const { calls } = fakeFunctions();
    const user = renderPage();
    await fill(user, 'Write Your Message Here', '   short   ');
    await user.click(sendButton());
    expect(screen.getByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Please select a subject')).toBeInTheDocument();
    expect(screen.getByText('Message should be at least 10 characters')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await fill(user, 'First Name', 'C');
    expect(screen.queryByText('First name is required')).not.toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Other' }));
    expect(screen.queryByText('Please select a subject')).not.toBeInTheDocument();
    await fill(user, 'Email', 'not-an-email');
    await user.click(sendButton());
    expect(screen.getByText('Please enter a valid email')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('sends the trimmed message, shows Sending... then the green success and clears the fields', async () => {
    const fake = fakeFunctions();
    const user = renderPage();
    await fillValid(user);
    const release = fake.hold();
    await user.click(sendButton());
    expect(sendButton()).toHaveTextContent('Sending...');
    expect(sendButton()).toBeDisabled();
    release();
    const ok = await screen.findByRole('status');
    expect(ok).toHaveTextContent("Message sent successfully! We'll be in touch soon.");
    expect(sendButton()).toHaveTextContent('Send Message');
    expect(sendButton()).toBeEnabled();
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0].name).toBe('contact-form-submit');
    expect(fake.calls[0].headers.get('apikey')).toBe('anon-key');
    expect(fake.calls[0].body).toEqual({
      firstName: 'Chanda',
      lastName: 'Mwale',
      email: 'chanda@example.com',
      phoneNumber: '+260 977 123456',
      subject: 'careers',
      message: 'Are you hiring designers in Lusaka?',
      website: '',
    });
    expect(screen.getByLabelText('First Name')).toHaveValue('');
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.getByLabelText('Write Your Message Here')).toHaveValue('');
    expect(screen.getByRole('radio', { name: 'Careers' })).not.toBeChecked();
  });

  it.each<[string, FakeAnswer, string]>([
    ['the server message', { status: 429, body: { error: 'Too many requests. Please wait a few minutes and try again.' } }, 'Error sending message: Too many requests. Please wait a few minutes and try again. Please try again later.'],
    ['the client message when the body has none', { status: 500, body: { nope: 1 } }, 'Error sending message: Edge Function returned a non-2xx status code. Please try again later.'],
  ])('on failure shows %s in red, keeps the values and logs the error', async (_name, answer, text) => {
    fakeFunctions(() => answer);
    const user = renderPage();
    await fillValid(user);
    await user.click(sendButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(screen.getByLabelText('First Name')).toHaveValue('  Chanda ');
    expect(screen.getByRole('radio', { name: 'Careers' })).toBeChecked();
    expect(errorLog).toHaveBeenCalled();
    expect(sendButton()).toBeEnabled();
  });

  it('without a connection keeps the message, says so, and sends it by itself when the connection returns', async () => {
    let online = false;
    const { calls } = fakeFunctions(() => (online ? { status: 200, body: { success: true } } : 'network-error'));
    const user = renderPage();
    await fillValid(user);
    await user.click(sendButton());
    expect(await screen.findByRole('status')).toHaveTextContent(
      'No internet connection. We kept what you typed and will send it automatically as soon as you are back online.',
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByLabelText('First Name')).toHaveValue('  Chanda ');
    expect(screen.getByRole('radio', { name: 'Careers' })).toBeChecked();
    expect(sendButton()).toBeDisabled();
    expect(calls).toHaveLength(1);

    online = true;
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByText("Message sent successfully! We'll be in touch soon.")).toBeInTheDocument();
    expect(calls).toHaveLength(2);
    expect(calls[1].body).toEqual(calls[0].body);
    expect(screen.getByLabelText('First Name')).toHaveValue('');
  });

  it('offline from the start: nothing is tried until the connection returns', async () => {
    const { calls, onLine, user } = await sendOffline();
    expect(calls).toHaveLength(0);
    // "Don't send" drops the pending message and keeps the fields.
    await user.click(screen.getByRole('button', { name: "Don't send" }));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.getByLabelText('First Name')).toHaveValue('  Chanda ');
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await user.click(sendButton());
    expect(await screen.findByText("Message sent successfully! We'll be in touch soon.")).toBeInTheDocument();
    expect(calls).toHaveLength(1);
  });

  it.each([
    ['kept', null, "Message sent successfully! We'll be in touch soon."],
    ['refused', { status: 400, message: 'Please correct the highlighted fields and try again.', fields: {} }, 'Error sending message: Please correct the highlighted fields and try again.'],
  ])('waiting for the connection, says at once what the service worker says when it has sent the message (%s)', async (_name, refusal, text) => {
    const { calls, onLine } = await sendOffline();
    // public/sw-forms.js sent the queued form (Background Sync) and says so on the channel.
    const [form] = await queuedForms();
    const worker = new BroadcastChannel(FORMS_CHANNEL);
    worker.postMessage({ form, refusal });
    worker.close();
    expect(await screen.findByText(text, { exact: false })).toBeInTheDocument();
    expect(screen.queryByText(/No internet connection/)).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
    onLine.mockRestore();
  });

  it('shows the server field errors and clears the earlier status when sending again', async () => {
    let n = 0;
    fakeFunctions(() =>
      n++ === 0
        ? { status: 400, body: { error: 'Please correct the highlighted fields and try again.', fields: { email: 'Please enter a valid email' } } }
        : { status: 200, body: { success: true } },
    );
    const user = renderPage();
    await fillValid(user);
    await user.click(sendButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Error sending message: Please correct the highlighted fields and try again. Please try again later.');
    expect(screen.getByText('Please enter a valid email')).toBeInTheDocument();
    await user.click(sendButton());
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(await screen.findByRole('status')).toHaveTextContent('Message sent successfully!');
  });
});
