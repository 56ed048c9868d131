import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import BuyerSignupPage from './BuyerSignupPage';
import { fakeFetch, fakeSupabase, fill, imageFile, renderAt, stubPageGlobals, TEST_CONFIG, USER_ID, where } from './testing';

const open = (path = '/buyersignup?role=buyer') => renderAt('/buyersignup', path, <BuyerSignupPage />);

describe('BuyerSignupPage', { timeout: 60_000 }, () => {
  const globals = stubPageGlobals();

  it('shows the four numbered steps and their fields', async () => {
    fakeSupabase();
    open();
    expect(await screen.findByRole('heading', { name: '1. Enter your details' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '2. Select your gender' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '3. Upload 3 full-body pictures (optional)' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '4. Pick your favourite clothing aesthetics' })).toBeInTheDocument();
    for (const label of ['Full name', 'Height', 'Waist size', 'Location', 'Age', 'Phone number', 'Describe the clothes you like']) {
      expect(screen.getByLabelText(label)).toBeEnabled();
    }
    const inspiration = screen.getByLabelText('Inspiration');
    expect(inspiration).toHaveDisplayValue('Inspiration');
    expect(inspiration.querySelectorAll('option')).toHaveLength(9);
    expect(screen.getByText('+260')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Voice input (not available yet)' })).toBeDisabled();
    expect(screen.getByText(/Step 4 gives you early access to virtual try-ons in phase 2/)).toBeInTheDocument();
    expect(screen.getByText(/We recommend 3 clear full-body photos/)).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Male' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Female' })).toBeInTheDocument();
    expect(screen.getAllByRole('checkbox', { name: /WEAR|WINTER|RETRO/ })).toHaveLength(8);
    expect(screen.getByRole('checkbox', { name: 'Join the Wardrobe Clearance Program' })).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'DONE' })).toBeEnabled();
  });

  it('sends the profile payload with role buyer, shows PROCESSING..., alerts and goes to /thanks', async () => {
    const fake = fakeSupabase();
    let release: (r: Response) => void = () => {};
    const fetchMock = vi.fn((_url: string, _init: RequestInit) => new Promise<Response>((r) => (release = r)));
    vi.stubGlobal('fetch', fetchMock);
    const user = open();
    await fill(user, 'Full name', 'Chipo Mwale');
    await fill(user, 'Height', '165 cm');
    await fill(user, 'Waist size', '28');
    await fill(user, 'Location', 'Kabulonga');
    await fill(user, 'Age', '24');
    await user.selectOptions(screen.getByLabelText('Inspiration'), 'DIY & Up-cycled fashion');
    await fill(user, 'Phone number', '971234567');
    await fill(user, 'Describe the clothes you like', 'Vintage denim');
    await user.click(screen.getByRole('radio', { name: 'Male' }));
    await user.upload(screen.getByLabelText('Add full-body photos'), [imageFile('1.png'), imageFile('2.png'), imageFile('3.png')]);
    await user.click(screen.getByRole('checkbox', { name: 'SPORTS WEAR' }));
    await user.click(screen.getByRole('checkbox', { name: 'Join the Wardrobe Clearance Program' }));
    await user.click(screen.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }));
    await user.click(screen.getByRole('button', { name: 'DONE' }));
    expect(await screen.findByRole('button', { name: 'PROCESSING...' })).toBeDisabled();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(screen.getAllByText('Uploaded')).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'PROCESSING...' })).toBeDisabled();
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe(`${TEST_CONFIG.url}/functions/v1/onboard-new-user`);
    const body = JSON.parse(String(init.body));
    const urls = fake.uploads.map((u) => `${TEST_CONFIG.url}/storage/v1/object/public/user-media/${u.path}`);
    expect(fake.uploads.every((u) => u.path.startsWith(`${USER_ID}/`) && !u.path.includes('/logos/'))).toBe(true);
    expect(body).toEqual({
      userId: USER_ID,
      role: 'buyer',
      full_name: 'Chipo Mwale',
      location: 'Kabulonga',
      age: 24,
      phone_number: '+260971234567',
      gender: 'Male',
      height: '165 cm',
      waist_size: '28',
      style_description: 'Vintage denim',
      clothing_aesthetics: ['SPORTS WEAR'],
      inspiration: 'DIY & Up-cycled fashion',
      wants_clearance_program: true,
      body_photo_urls: urls,
      profile_pic_url: urls[0],
      terms: true,
      parental_consent: false,
    });
    release(new Response('{}', { status: 200 }));
    expect(await where()).toBe('/thanks');
    expect(globals.alert).toHaveBeenCalledWith('Profile created successfully!');
  });

  it('shows the rules per field without sending anything', async () => {
    fakeSupabase();
    const { fetchMock } = fakeFetch([200, {}]);
    const user = open();
    await fill(user, 'Age', '12');
    await fill(user, 'Phone number', '0111234567');
    await user.click(screen.getByRole('button', { name: 'DONE' }));
    expect(screen.getByLabelText('Age')).toHaveAccessibleDescription('Age must be between 13 and 120');
    expect(screen.getByLabelText('Phone number')).toHaveAccessibleDescription(
      'Please enter a valid Zambian phone number, e.g. +260 97 123 4567',
    );
    expect(screen.getAllByText('Please select at least one clothing aesthetic').length).toBeGreaterThanOrEqual(1);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
