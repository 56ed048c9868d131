import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { TextField } from '../../components/ui';
import { MAX_PROFILE_IMAGES, STYLE_LABEL } from '../../config/constants';
import { AestheticGrid } from './components/AestheticGrid';
import { ImageUploadArea } from './components/ImageUploadArea';
import { ClearanceCheckbox, GENDERS_PROFILE, GenderPicker, InspirationSelect, PhoneField, SectionTitle, ParentalConsentCheckbox, TermsCheckbox } from './components/FormPieces';
import { EMPTY_BUYER, FormBanner, OnboardingPage, SubmitButton, toggled, useOnboardingSubmit } from './components/OnboardingForm';
import { submitProfile } from './flows';
import { roleFrom } from './payloads';
import { ACCOUNT_PATH } from '../../config/constants';
import { buyerFieldsFrom, useEditProfile, useFinishedProfileGoesToAccount } from './savedProfile';
import { useFields } from './useFields';
import { useImagePicker } from './useImagePicker';
import { photoPath } from './api';
import { isMinor, validateBuyer, type BuyerErrorKey, type BuyerFields } from './validation';

/**
 * OnboardingProfilePage (/onboarding?role=...): the onboarding profile
 * screen. Validates on submit with the spec's messages, uploads the photos,
 * POSTs onboard-new-user with the role from the query, then goes to /thanks.
 * Errors show under each field and in a banner.
 */
export default function OnboardingProfilePage() {
  const [params] = useSearchParams();
  const role = roleFrom(params.get('role'), 'buyer');
  useFinishedProfileGoesToAccount(params.get('edit') === '1');
  const navigate = useNavigate();
  const form = useFields<BuyerFields, BuyerErrorKey>(EMPTY_BUYER);
  const { values, set, errors, setErrors, text } = form;
  const photos = useImagePicker(MAX_PROFILE_IMAGES, photoPath);
  const edit = useEditProfile(params.get('edit') === '1', (p) => {
    form.reset(buyerFieldsFrom(p));
    photos.preload(p.body_photo_urls ?? []);
  });
  const [editingAesthetics, setEditingAesthetics] = useState(true);
  const { busy, banner, onSubmit } = useOnboardingSubmit(setErrors, {
    validate: () => validateBuyer(values, photos.items.length),
    send: () => submitProfile(role, values, photos),
    done: () => navigate(edit.editing ? ACCOUNT_PATH : '/thanks', edit.editing ? { state: { saved: true } } : undefined),
  });

  return (
    <OnboardingPage title={edit.editing ? 'Edit Your Profile' : 'Complete Your Profile'} onSubmit={onSubmit}>
      <FormBanner message={banner || edit.error} errors={errors} />
      <SectionTitle>Your details</SectionTitle>
      <TextField {...text('full_name', 'Full name', busy)} autoComplete="name" />
      <TextField {...text('location', 'Location', busy)} autoComplete="address-level2" />
      <TextField {...text('age', 'Age', busy)} inputProps={{ inputMode: 'numeric', maxLength: 3 }} />
      <PhoneField {...text('phone_number', 'Phone number', busy)} />
      <div className="ob-pair">
        <TextField {...text('height', 'Height', busy)} placeholder="e.g. 170 cm" />
        <TextField {...text('waist_size', 'Waist size', busy)} placeholder="e.g. 32 in" />
      </div>
      <TextField {...text('user_description', STYLE_LABEL, busy)} multiline minRows={3} />
      <GenderPicker value={values.gender} onChange={(v) => set('gender', v)} options={GENDERS_PROFILE} disabled={busy} error={errors.gender} />
      <SectionTitle>Your clothing aesthetics</SectionTitle>
      <AestheticGrid
        selected={values.clothing_aesthetics}
        onToggle={(t) => set('clothing_aesthetics', toggled(values.clothing_aesthetics, t))}
        editing={editingAesthetics}
        onEditingChange={setEditingAesthetics}
        disabled={busy}
        error={errors.clothing_aesthetics}
      />
      <InspirationSelect value={values.inspiration} onChange={(v) => set('inspiration', v)} disabled={busy} />
      <SectionTitle>Your photos</SectionTitle>
      <ImageUploadArea
        picker={photos}
        itemName="Photo"
        addLabel="Add photos"
        hint={`Up to ${MAX_PROFILE_IMAGES} images.`}
        disabled={busy}
        error={errors.images}
      />
      <ClearanceCheckbox checked={values.wants_clearance_program} onChange={(v) => set('wants_clearance_program', v)} disabled={busy} />
      {isMinor(values.age) && (
        <ParentalConsentCheckbox checked={values.parental_consent} onChange={(v) => set('parental_consent', v)} disabled={busy} error={errors.parental_consent} />
      )}
      <TermsCheckbox checked={values.terms} onChange={(v) => set('terms', v)} disabled={busy} error={errors.terms} />
      <SubmitButton uploading={photos.pending} busy={busy || edit.loading} label={edit.editing ? 'SAVE CHANGES' : 'SUBMIT'} busyLabel={edit.loading ? 'LOADING...' : edit.editing ? 'SAVING...' : 'SUBMITTING...'} />
    </OnboardingPage>
  );
}
