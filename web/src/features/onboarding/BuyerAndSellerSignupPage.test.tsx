import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import BuyerAndSellerSignupPage from './BuyerAndSellerSignupPage';
import { fakeFetch, fakeSupabase, fill, imageFile, renderAt, stubPageGlobals, TEST_CONFIG, USER_ID, where } from './testing';

const open = () => renderAt('/buyerandsellersignup', '/buyerandsellersignup', <BuyerAndSellerSignupPage />);

describe('BuyerAndSellerSignupPage', { timeout: 60_000 }, () => {
  const globals = stubPageGlobals();

  it('sends both halves with role buyer_and_seller, then goes to /thanks', async () => {
    const fake = fakeSupabase();
    const { calls } = fakeFetch([200, {}]);
    const user = open();
    await fill(user, 'Business name', 'Chipo Thrift');
    await fill(user, 'Registration number (optional)', 'PACRA 42');
    await fill(user, 'Full name', 'Chipo Mwale');
    await fill(user, 'Height', '165 cm');
    await fill(user, 'Waist size', '28');
    await fill(user, 'Location', 'Kabulonga');
    await fill(user, 'Age', '24');
    await fill(user, 'Phone number', '0771234567');
    await fill(user, 'Describe the clothes you like', 'Bright colours');
    expect(screen.getByRole('button', { name: 'Voice note (1 minute) (not available yet)' })).toBeDisabled();
    await user.upload(screen.getByLabelText('Add logo or brand images'), [imageFile('logo.png')]);
    await user.click(screen.getByRole('radio', { name: /Social Media Sale/ }));
    await user.click(screen.getByRole('radio', { name: 'Female' }));
    await user.upload(screen.getByLabelText('Add full-body photos'), [imageFile('me.png')]);
    await user.click(screen.getByRole('checkbox', { name: 'SUMMER WEAR' }));
    await user.click(screen.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }));
    // Each picture went up when it was picked, before the form is sent.
    await waitFor(() => expect(fake.uploads.map((u) => u.path)).toEqual([
      expect.stringMatching(new RegExp(`^${USER_ID}/logos/\\d+-logo.png$`)),
      expect.stringMatching(new RegExp(`^${USER_ID}/\\d+-me.png$`)),
    ]));
    expect(calls).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'FINISH & CREATE PROFILE' }));
    expect(await where()).toBe('/thanks');
    expect(globals.alert).toHaveBeenCalledWith('Profile created successfully!');
    expect(fake.uploads).toHaveLength(2);
    expect(calls.map((c) => c.url)).toEqual([
      `${TEST_CONFIG.url}/functions/v1/onboard-new-user`,
      `${TEST_CONFIG.url}/functions/v1/onboard-seller`,
    ]);
    expect(calls[0].body).toMatchObject({ role: 'buyer_and_seller', gender: 'Female', style_description: 'Bright colours', clothing_aesthetics: ['SUMMER WEAR'] });
    expect(calls[0].body.body_photo_urls).toHaveLength(1);
    expect(calls[1].body).toMatchObject({
      role: 'buyer_and_seller',
      gender: 'Female',
      business_name: 'Chipo Thrift',
      registration_number: 'PACRA 42',
      business_mode: 'Social Media Sale',
      phone_number: '+260771234567',
    });
    expect(calls[1].body.logo_urls).toHaveLength(1);
  });

  it('checks both halves before sending, and stops when the first half fails', async () => {
    fakeSupabase();
    const { fetchMock } = fakeFetch([400, { error: 'Height is required' }]);
    const user = open();
    await user.click(await screen.findByRole('button', { name: 'FINISH & CREATE PROFILE' }));
    for (const message of ['Business name is required', 'Height is required', 'Please upload at least one logo or brand image', 'Gender is required']) {
      expect(screen.getAllByText(message).length).toBeGreaterThanOrEqual(1);
    }
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
