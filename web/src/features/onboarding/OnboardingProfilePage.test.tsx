import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import OnboardingProfilePage from './OnboardingProfilePage';
import { ACCESS_TOKEN, fill, fakeFetch, fakeSupabase, imageFile, renderAt, stubPageGlobals, TEST_CONFIG, USER_ID, where } from './testing';

const open = (path = '/onboarding?role=seller') => renderAt('/onboarding', path, <OnboardingProfilePage />);

async function fillValid(user: UserEvent) {
  await fill(user, 'Full name', '  Mwila Banda ');
  await fill(user, 'Location', 'Kabulonga, Lusaka');
  await fill(user, 'Age', '27');
  await fill(user, 'Phone number', '0971234567');
  await fill(user, 'Height', '170 cm');
  await fill(user, 'Waist size', '32 in');
  await fill(user, 'Describe the clothes you like', 'Bright chitenge prints');
  await user.click(screen.getByRole('radio', { name: 'Female' }));
  await user.click(screen.getByRole('checkbox', { name: 'DENIM WEAR' }));
  await user.click(screen.getByRole('checkbox', { name: 'STREET WEAR' }));
  await user.selectOptions(screen.getByLabelText('Inspiration'), 'Historical eras e.g. 90s');
  await user.click(screen.getByRole('checkbox', { name: /I accept the Terms and Conditions/ }));
}

describe('OnboardingProfilePage', { timeout: 60_000 }, () => {
  const globals = stubPageGlobals();

  it('sends a visitor without a session to /sign_up and back after', async () => {
    const fake = fakeSupabase();
    fake.getSession.mockResolvedValue({ data: { session: null }, error: null });
    open('/onboarding?role=buyer');
    expect(await where()).toBe('/sign_up?next=%2Fonboarding%3Frole%3Dbuyer');
  });

  it('shows every rule of the spec per field and in a banner, and sends nothing', async () => {
    fakeSupabase();
    const { fetchMock } = fakeFetch([200, {}]);
    const user = open();
    await user.click(await screen.findByRole('button', { name: 'SUBMIT' }));
    for (const [label, message] of [
      ['Full name', 'Full name is required'],
      ['Location', 'Location is required'],
      ['Age', 'Age is required'],
      ['Phone number', 'Phone number is required'],
      ['Height', 'Height is required'],
      ['Waist size', 'Waist size is required'],
      ['Describe the clothes you like', 'Description is required'],
    ]) {
      expect(screen.getByLabelText(label)).toHaveAccessibleDescription(message);
    }
    const banner = screen.getAllByRole('alert')[0];
    for (const message of [
      'Full name is required',
      'Gender is required',
      'Please select at least one clothing aesthetic',
      'You must accept the Terms and Conditions',
    ]) {
      expect(within(banner).getByText(message)).toBeInTheDocument();
      expect(screen.getAllByText(message).length).toBeGreaterThanOrEqual(2);
    }
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('clears a field error when the field is edited', async () => {
    fakeSupabase();
    const user = open();
    await user.click(await screen.findByRole('button', { name: 'SUBMIT' }));
    expect(screen.getByLabelText('Full name')).toHaveAccessibleDescription('Full name is required');
    await fill(user, 'Full name', 'M');
    expect(screen.getByLabelText('Full name')).not.toHaveAccessibleDescription('Full name is required');
  });

  it('shows the saved photos of a profile being edited as thumbnails sized for their place', async () => {
    const fake = fakeSupabase();
    const saved = `${TEST_CONFIG.url}/storage/v1/object/public/user-media/${USER_ID}/photos/1700000000-me.jpg`;
    const profile = { user_id: USER_ID, email: 'a@b.zm', role: 'buyer', full_name: 'Mwila Banda', body_photo_urls: [saved] };
    Object.assign(fake.client, { functions: { invoke: vi.fn(async () => ({ data: profile, error: null })) } });
    open('/onboarding?role=buyer&edit=1');
    const preview = await screen.findByRole('img', { name: 'Photo 1 preview' });
    // A 96 px preview at twice the pixels, not the stored photo.
    expect(preview).toHaveAttribute(
      'src',
      `${TEST_CONFIG.url}/storage/v1/render/image/public/user-media/${USER_ID}/photos/1700000000-me.jpg?width=192&height=192&resize=cover`,
    );
    expect(screen.getByTestId('upload-state')).toHaveTextContent('Uploaded');
  });

  it('toggles aesthetic cards only in edit mode and marks the selected ones', async () => {
    fakeSupabase();
    const user = open();
    const retro = await screen.findByRole('checkbox', { name: 'RETRO OUTFITS' });
    expect(screen.getAllByRole('img').some((i) => i.getAttribute('alt')?.includes('flared trousers'))).toBe(true);
    await user.click(retro);
    expect(retro).toHaveAttribute('aria-checked', 'true');
    expect(within(retro).getByTestId('aesthetic-check')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Done choosing aesthetics' }));
    await user.click(retro);
    await user.click(screen.getByRole('checkbox', { name: 'SPORTS WEAR' }));
    expect(retro).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('checkbox', { name: 'SPORTS WEAR' })).toHaveAttribute('aria-checked', 'false');
    await user.click(screen.getByRole('button', { name: 'Edit aesthetics' }));
    await user.click(retro);
    expect(retro).toHaveAttribute('aria-checked', 'false');
    expect(within(retro).queryByTestId('aesthetic-check')).not.toBeInTheDocument();
  });

  it('refuses a file that is not a photo at once, naming it; takes at most 3, uploading each at once; removes with the cross', async () => {
    const fake = fakeSupabase();
    const user = open();
    const input = await screen.findByLabelText('Add photos');
    // A file chooser's "all files", or a drop, lets any file through the input's accept="image/*".
    await userEvent.setup({ applyAccept: false }).upload(input, [imageFile('a.png'), new File(['x'], 'notes.txt', { type: 'text/plain' })]);
    expect(screen.getByRole('alert')).toHaveTextContent('\u201cnotes.txt\u201d is not a photo: choose a JPEG, PNG or WebP picture.');
    expect(screen.getAllByRole('img', { name: /^Photo \d preview$/ })).toHaveLength(1);
    await user.upload(input, [imageFile('b.png'), imageFile('c.png'), imageFile('d.png')]);
    expect(screen.getAllByRole('img', { name: /^Photo \d preview$/ })).toHaveLength(3);
    expect(screen.queryByText(/notes\.txt/)).not.toBeInTheDocument();
    expect(screen.getByText('Only 3 images can be added; 1 file was left out.')).toHaveAttribute('role', 'status');
    expect(screen.getByRole('button', { name: /Add photos \(3\/3\)/ })).toBeDisabled();
    // Each photo went up as soon as it was picked; the text file never did.
    await waitFor(() => expect(screen.getAllByTestId('upload-state').map((e) => e.textContent)).toEqual(['Uploaded', 'Uploaded', 'Uploaded']));
    expect(fake.uploads.map((u) => u.file.name)).toEqual(['a.png', 'b.png', 'c.png']);
    await user.click(screen.getByRole('button', { name: 'Remove photo 2 (b.png)' }));
    expect(globals.objectUrls.revoked).toHaveBeenCalledWith('blob:preview-2');
    expect(screen.getAllByRole('img', { name: /^Photo \d preview$/ })).toHaveLength(2);
    expect(screen.getByRole('button', { name: /Add photos \(2\/3\)/ })).toBeEnabled();
  });

  it('uploads the photos, posts the profile with the role from the query, and goes to /thanks', async () => {
    const fake = fakeSupabase();
    const { calls } = fakeFetch([200, { ok: true }]);
    const user = open('/onboarding?role=seller');
    await fillValid(user);
    await user.upload(screen.getByLabelText('Add photos'), [imageFile('Me Front (1).png'), imageFile('side.png')]);
    await user.click(screen.getByRole('button', { name: 'SUBMIT' }));
    expect(await where()).toBe('/thanks');
    expect(fake.uploads.map((u) => u.bucket)).toEqual(['user-media', 'user-media']);
    expect(fake.uploads[0].path).toMatch(new RegExp(`^${USER_ID}/\\d+-Me-Front-1-.png$`));
    expect(fake.uploads[1].path).toMatch(new RegExp(`^${USER_ID}/\\d+-side.png$`));
    expect(fake.uploads[0].path).not.toBe(fake.uploads[1].path);
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe(`${TEST_CONFIG.url}/functions/v1/onboard-new-user`);
    expect(calls[0].headers).toEqual({
      'Content-Type': 'application/json',
      Authorization: `Bearer ${ACCESS_TOKEN}`,
      apikey: TEST_CONFIG.anonKey,
    });
    const urls = fake.uploads.map((u) => `${TEST_CONFIG.url}/storage/v1/object/public/user-media/${u.path}`);
    expect(calls[0].body).toEqual({
      userId: USER_ID,
      role: 'seller',
      full_name: 'Mwila Banda',
      location: 'Kabulonga, Lusaka',
      age: 27,
      phone_number: '+260971234567',
      gender: 'Female',
      height: '170 cm',
      waist_size: '32 in',
      style_description: 'Bright chitenge prints',
      clothing_aesthetics: ['DENIM WEAR', 'STREET WEAR'],
      inspiration: 'Historical eras e.g. 90s',
      wants_clearance_program: false,
      body_photo_urls: urls,
      profile_pic_url: urls[0],
      terms: true,
      parental_consent: false,
    });
  });

  it('defaults the role to buyer when the query has none', async () => {
    fakeSupabase();
    const { calls } = fakeFetch([200, {}]);
    const user = open('/onboarding');
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'SUBMIT' }));
    expect(await where()).toBe('/thanks');
    expect(calls[0].body.role).toBe('buyer');
    expect(calls[0].body.profile_pic_url).toBeNull();
  });

  it('a photo the server refuses says why at once, stops the submit, and is sent again with Try again', async () => {
    const fake = fakeSupabase();
    fake.upload.mockResolvedValueOnce({ data: { path: '' }, error: { message: 'The file is too large: at most 10 MB per image', status: 413 } });
    const { calls, fetchMock } = fakeFetch([200, {}]);
    const user = open();
    await user.upload(await screen.findByLabelText('Add photos'), [imageFile('a.png'), imageFile('b.png')]);
    // Refused before the form is even filled in: under the photo, in plain words, with Try again.
    const tooLarge = 'This photo is too large: The file is too large: at most 10 MB per image';
    expect(await screen.findByText(tooLarge)).toHaveAttribute('role', 'alert');
    await waitFor(() => expect(screen.getAllByTestId('upload-state').map((e) => e.textContent)).toEqual(['Failed', 'Uploaded']));
    // A refusal is not tried again by itself.
    expect(fake.upload).toHaveBeenCalledTimes(2);

    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'SUBMIT' }));
    const blocked = `Photo 1 (a.png) did not upload: ${tooLarge}. Try again or remove it, then send the form again.`;
    expect((await screen.findByText(blocked)).classList.contains('fk-alert-msg')).toBe(true);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Full name')).toHaveValue('  Mwila Banda ');

    await user.click(screen.getByRole('button', { name: 'Try again: photo 1' }));
    await waitFor(() => expect(screen.getAllByTestId('upload-state').map((e) => e.textContent)).toEqual(['Uploaded', 'Uploaded']));
    expect(screen.queryByRole('button', { name: /Try again/ })).toBeNull();
    expect(fake.upload).toHaveBeenCalledTimes(3);

    await user.click(screen.getByRole('button', { name: 'SUBMIT' }));
    expect(await where()).toBe('/thanks');
    // b.png went once; a.png's second try is the photo sent, at a path of its own.
    expect(fake.upload).toHaveBeenCalledTimes(3);
    const tried = fake.upload.mock.calls.map(([, path, file]) => ({ path, name: file.name }));
    expect(tried.map((t) => t.name)).toEqual(['a.png', 'b.png', 'a.png']);
    expect(tried[2].path).not.toBe(tried[0].path);
    const url = (path: string) => `${TEST_CONFIG.url}/storage/v1/object/public/user-media/${path}`;
    expect(calls[0].body.body_photo_urls).toEqual([url(tried[2].path), url(tried[1].path)]);
  });

  it('shows each photo upload progress before the form is sent; the submit waits for it, saying so', async () => {
    const fake = fakeSupabase();
    let release: () => void = () => {};
    fake.upload.mockImplementationOnce(
      (bucket, path, file, options) =>
        new Promise((resolve) => {
          fake.uploads.push({ bucket, path, file, options });
          release = () => resolve({ data: { path }, error: null });
        }),
    );
    const { calls } = fakeFetch([200, {}]);
    const user = open();
    await user.upload(await screen.findByLabelText('Add photos'), [new File([new Uint8Array(4000)], 'big.png', { type: 'image/png' })]);
    const bar = await screen.findByRole('progressbar', { name: 'Photo 1 upload progress' });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '50'));
    expect(bar).toHaveAttribute('aria-valuetext', '50%');
    expect(screen.getByTestId('upload-state')).toHaveTextContent('Uploading... 50%');
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'SUBMIT' }));
    expect(await screen.findByRole('button', { name: 'WAITING FOR UPLOADS...' })).toBeDisabled();
    expect(screen.getByText('The form is sent as soon as the last upload finishes.')).toHaveAttribute('role', 'status');
    expect(calls).toEqual([]);
    release();
    expect(await where()).toBe('/thanks');
    expect(calls[0].body.body_photo_urls).toEqual([`${TEST_CONFIG.url}/storage/v1/object/public/user-media/${fake.uploads[0].path}`]);
  });

  it('removing a photo while it uploads stops its upload, and the form is sent without it', async () => {
    const fake = fakeSupabase();
    fake.upload.mockImplementationOnce(() => new Promise(() => {}));
    const { calls } = fakeFetch([200, {}]);
    const user = open();
    await user.upload(await screen.findByLabelText('Add photos'), [imageFile('slow.png'), imageFile('quick.png')]);
    await screen.findByRole('progressbar', { name: 'Photo 1 upload progress' });
    const abort = vi.spyOn(XMLHttpRequest.prototype, 'abort');
    await user.click(screen.getByRole('button', { name: 'Remove photo 1 (slow.png)' }));
    expect(abort).toHaveBeenCalledTimes(1);
    expect(screen.getAllByRole('img', { name: /^Photo \d preview$/ })).toHaveLength(1);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'SUBMIT' }));
    expect(await where()).toBe('/thanks');
    expect(fake.uploads.map((u) => u.file.name)).toEqual(['quick.png']);
    expect(calls[0].body.body_photo_urls).toEqual([`${TEST_CONFIG.url}/storage/v1/object/public/user-media/${fake.uploads[0].path}`]);
  });

  it("shows the server's error field, with its field messages", async () => {
    fakeSupabase();
    fakeFetch([400, { error: 'Please enter a valid Zambian phone number', fields: { phone_number: 'Please enter a valid Zambian phone number' } }]);
    const user = open();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'SUBMIT' }));
    expect(await screen.findByLabelText('Phone number')).toHaveAccessibleDescription('Please enter a valid Zambian phone number');
    expect(screen.getAllByRole('alert')[0]).toHaveTextContent('Please enter a valid Zambian phone number');
  });

  it('shows the status when the server answers without an error field', async () => {
    fakeSupabase();
    fakeFetch([502, '<html>Bad gateway</html>']);
    const user = open();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'SUBMIT' }));
    expect(await screen.findByText('Server responded with status 502')).toBeInTheDocument();
  });

  it('asks to log in again when the session is gone at submit time', async () => {
    const fake = fakeSupabase();
    const { fetchMock } = fakeFetch([200, {}]);
    const user = open();
    await fillValid(user);
    fake.getSession.mockResolvedValue({ data: { session: null }, error: null });
    await user.click(screen.getByRole('button', { name: 'SUBMIT' }));
    expect(await screen.findByText('Could not get user session. Please log in again.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('ignores a repeat submit while one is running, and clears the old error first', async () => {
    fakeSupabase();
    let release: (r: Response) => void = () => {};
    const fetchMock = vi.fn()
      .mockResolvedValueOnce(new Response(JSON.stringify({ error: 'First failure' }), { status: 400 }))
      .mockImplementationOnce(() => new Promise<Response>((r) => (release = r)));
    vi.stubGlobal('fetch', fetchMock);
    const user = open();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'SUBMIT' }));
    expect(await screen.findByText('First failure')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'SUBMIT' }));
    expect(await screen.findByRole('button', { name: 'SUBMITTING...' })).toBeDisabled();
    expect(screen.queryByText('First failure')).not.toBeInTheDocument();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    screen.getByRole('form').dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    release(new Response('{}', { status: 200 }));
    expect(await where()).toBe('/thanks');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
