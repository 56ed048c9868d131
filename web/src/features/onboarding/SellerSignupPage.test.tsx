import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import SellerSignupPage from './SellerSignupPage';
import { ACCESS_TOKEN, fakeFetch, fakeSupabase, fill, imageFile, renderAt, stubPageGlobals, TEST_CONFIG, USER_ID, where } from './testing';

const open = (path = '/sellersignup') => renderAt('/sellersignup', path, <SellerSignupPage />);

async function fillValid(user: UserEvent, logos = [imageFile('logo.png'), imageFile('shop front.jpg', 'image/jpeg')]) {
  await fill(user, 'Full name', 'Mwila Banda');
  await fill(user, 'Phone number', '096 123 4567');
  await fill(user, 'Location', 'Kamwala Market, Lusaka');
  await fill(user, 'Age', '31');
  await user.click(screen.getByRole('radio', { name: 'Male' }));
  await fill(user, 'Business name', 'Mwila Thrift');
  await user.click(screen.getByRole('radio', { name: /Street Vendor/ }));
  await user.upload(screen.getByLabelText('Add logo or brand images'), logos);
  await user.click(screen.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }));
}

describe('SellerSignupPage', { timeout: 60_000 }, () => {
  const globals = stubPageGlobals();

  it('shows the sections, the +260 prefix and the four business modes', async () => {
    fakeSupabase();
    open();
    expect(await screen.findByRole('heading', { name: 'Create Your Seller Profile' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your Details' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Business Details' })).toBeInTheDocument();
    expect(screen.getByText('+260')).toBeInTheDocument();
    for (const mode of ['Thrift Shop or Store', 'Social Media Sale', 'Street Vendor', 'None']) {
      expect(screen.getByRole('radio', { name: new RegExp(mode) })).toBeInTheDocument();
    }
    expect(screen.getByLabelText('Registration number (optional)')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Terms and Conditions' })).toHaveAttribute('href', '/termsandconditions');
  });

  it('shows each spec message under its field and clears it on edit', async () => {
    fakeSupabase();
    const { fetchMock } = fakeFetch([200, {}]);
    const user = open();
    await user.click(await screen.findByRole('button', { name: 'FINISH & CREATE PROFILE' }));
    for (const message of [
      'Full name is required',
      'Location is required',
      'Age is required',
      'Phone number is required',
      'Business name is required',
      'Please select your gender',
      'Please select your business mode',
      'Please upload at least one logo or brand image',
      'You must accept the Terms and Conditions',
    ]) {
      expect(screen.getAllByText(message).length).toBeGreaterThanOrEqual(1);
    }
    expect(screen.getByLabelText('Business name')).toHaveAccessibleDescription('Business name is required');
    await fill(user, 'Business name', 'X');
    expect(screen.queryByText('Business name is required')).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /None/ }));
    expect(screen.queryByText('Please select your business mode')).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('uploads the logos under logos/, posts onboard-seller, alerts and goes to /thanks', async () => {
    const fake = fakeSupabase();
    const { calls } = fakeFetch([200, { message: 'ok' }]);
    const user = open('/sellersignup?role=buyer_and_seller');
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'FINISH & CREATE PROFILE' }));
    expect(await where()).toBe('/thanks');
    expect(globals.alert).toHaveBeenCalledWith('Seller profile created successfully!');
    expect(fake.uploads.map((u) => u.path)).toEqual([
      expect.stringMatching(new RegExp(`^${USER_ID}/logos/\\d+-logo.png$`)),
      expect.stringMatching(new RegExp(`^${USER_ID}/logos/\\d+-shop-front.jpg$`)),
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe(`${TEST_CONFIG.url}/functions/v1/onboard-seller`);
    expect(calls[0].headers).toEqual({
      'Content-Type': 'application/json',
      Authorization: `Bearer ${ACCESS_TOKEN}`,
      apikey: TEST_CONFIG.anonKey,
    });
    expect(calls[0].body).toEqual({
      userId: USER_ID,
      role: 'buyer_and_seller',
      full_name: 'Mwila Banda',
      location: 'Kamwala Market, Lusaka',
      age: 31,
      phone_number: '+260961234567',
      gender: 'male',
      business_name: 'Mwila Thrift',
      registration_number: null,
      business_mode: 'Street Vendor',
      logo_urls: fake.uploads.map((u) => `${TEST_CONFIG.url}/storage/v1/object/public/user-media/${u.path}`),
      terms: true,
      parental_consent: false,
    });
  });

  it('defaults the role to seller, and disables every input while busy', async () => {
    fakeSupabase();
    let release: (r: Response) => void = () => {};
    const fetchMock = vi.fn(() => new Promise<Response>((r) => (release = r)));
    vi.stubGlobal('fetch', fetchMock);
    const user = open();
    await fillValid(user, [imageFile('logo.png')]);
    await user.click(screen.getByRole('button', { name: 'FINISH & CREATE PROFILE' }));
    expect(await screen.findByRole('button', { name: 'PROCESSING...' })).toBeDisabled();
    for (const label of ['Full name', 'Phone number', 'Location', 'Age', 'Business name', 'Registration number (optional)']) {
      expect(screen.getByLabelText(label)).toBeDisabled();
    }
    expect(screen.getByRole('radio', { name: 'Male' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: /Street Vendor/ })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: /I accept/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /Add logo or brand images/ })).toBeDisabled();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const body = JSON.parse(String((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body));
    expect(body.role).toBe('seller');
    release(new Response('{}', { status: 200 }));
    expect(await where()).toBe('/thanks');
  });

  it.each([
    ['no session', 'session-none', 'You must be logged in.'],
    ['a session error', 'session-error', 'Session error: Refresh Token Not Found'],
    [
      'an upload failure',
      'upload',
      'Logo 1 (logo.png) did not upload: This file is not a photo we can take: The file is not a JPEG, PNG or WebP image. Try again or remove it, then send the form again.',
    ],
    ['a function error', 'function-error', 'Business name is required'],
    ['a function status', 'function-status', 'Function returned a non-2xx status code: 503'],
    ['a network failure', 'network', 'An unexpected error occurred.'],
  ])('shows %s in the banner and keeps the form', async (_name, kind, banner) => {
    const fake = fakeSupabase();
    const { fetchMock } = fakeFetch(
      kind === 'function-error'
        ? [400, { error: 'Business name is required', fields: { business_name: 'Business name is required' } }]
        : kind === 'function-status'
          ? [503, 'Service Unavailable']
          : kind === 'network'
            ? new TypeError('Failed to fetch')
            : [200, {}],
    );
    const user = open();
    if (kind === 'upload') {
      fake.upload.mockResolvedValue({ data: { path: '' }, error: { message: 'The file is not a JPEG, PNG or WebP image', status: 415 } });
    }
    await fillValid(user);
    if (kind === 'session-none') fake.getSession.mockResolvedValue({ data: { session: null }, error: null });
    if (kind === 'session-error') {
      fake.getSession.mockResolvedValue({ data: { session: null }, error: { message: 'Refresh Token Not Found' } });
    }
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: 'FINISH & CREATE PROFILE' }));
    expect((await screen.findAllByText(banner)).some((el) => el.classList.contains('fk-alert-msg'))).toBe(true);
    expect(screen.getByLabelText('Full name')).toHaveValue('Mwila Banda');
    expect(screen.getByRole('button', { name: 'FINISH & CREATE PROFILE' })).toBeEnabled();
    expect(globals.alert).not.toHaveBeenCalled();
    if (kind.startsWith('session') || kind === 'upload') expect(fetchMock).not.toHaveBeenCalled();
  });
});
