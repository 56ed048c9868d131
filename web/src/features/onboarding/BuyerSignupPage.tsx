import { useNavigate, useSearchParams } from 'react-router';
import { BUYER_PHOTOS } from '../../config/constants';
import { AestheticGrid } from './components/AestheticGrid';
import { ImageUploadArea } from './components/ImageUploadArea';
import { ClearanceCheckbox, GENDERS_PROFILE, GenderPicker, SectionTitle, ParentalConsentCheckbox, TermsCheckbox } from './components/FormPieces';
import { BuyerDetailsFields, EMPTY_BUYER, FormBanner, OnboardingPage, SubmitButton, toggled, useOnboardingSubmit } from './components/OnboardingForm';
import { submitProfile } from './flows';
import { roleFrom } from './payloads';
import { useFields } from './useFields';
import { useFinishedProfileGoesToAccount } from './savedProfile';
import { useImagePicker } from './useImagePicker';
import { photoPath } from './api';
import { isMinor, validateBuyer, type BuyerErrorKey, type BuyerFields } from './validation';

/**
 * BuyerSignupPage (/buyersignup): the four numbered steps. It sends the
 * onboarding profile payload with role buyer to onboard-new-user, alerts
 * 'Profile created successfully!' and goes to /thanks.
 */
export default function BuyerSignupPage() {
  const [params] = useSearchParams();
  const role = roleFrom(params.get('role'), 'buyer');
  const navigate = useNavigate();
  useFinishedProfileGoesToAccount();
  const form = useFields<BuyerFields, BuyerErrorKey>(EMPTY_BUYER);
  const { values, set, errors, setErrors } = form;
  const photos = useImagePicker(BUYER_PHOTOS, photoPath);
  const { busy, banner, onSubmit } = useOnboardingSubmit(setErrors, {
    validate: () => validateBuyer(values, photos.items.length),
    send: () => submitProfile(role, values, photos),
    done: () => {
      window.alert('Profile created successfully!');
      navigate('/thanks');
    },
  });

  return (
    <OnboardingPage title="Create Your Buyer Profile" onSubmit={onSubmit}>
      <FormBanner message={banner} errors={errors} />
      <SectionTitle>1. Enter your details</SectionTitle>
      <BuyerDetailsFields form={form} busy={busy} />
      <SectionTitle>2. Select your gender</SectionTitle>
      <GenderPicker value={values.gender} onChange={(v) => set('gender', v)} options={GENDERS_PROFILE} disabled={busy} error={errors.gender} />
      <SectionTitle>3. Upload 3 full-body pictures (optional)</SectionTitle>
      <p className="fk-body2 ob-muted">Step 4 gives you early access to virtual try-ons in phase 2. We recommend 3 clear full-body photos.</p>
      <ImageUploadArea
        picker={photos}
        itemName="Photo"
        addLabel="Add full-body photos"
        hint="Stand in good light, facing the camera, head to toe in the picture."
        disabled={busy}
        error={errors.images}
      />
      <SectionTitle>4. Pick your favourite clothing aesthetics</SectionTitle>
      <AestheticGrid
        selected={values.clothing_aesthetics}
        onToggle={(t) => set('clothing_aesthetics', toggled(values.clothing_aesthetics, t))}
        editing
        disabled={busy}
        error={errors.clothing_aesthetics}
      />
      <ClearanceCheckbox checked={values.wants_clearance_program} onChange={(v) => set('wants_clearance_program', v)} disabled={busy} />
      {isMinor(values.age) && (
        <ParentalConsentCheckbox checked={values.parental_consent} onChange={(v) => set('parental_consent', v)} disabled={busy} error={errors.parental_consent} />
      )}
      <TermsCheckbox checked={values.terms} onChange={(v) => set('terms', v)} disabled={busy} error={errors.terms} />
      <SubmitButton uploading={photos.pending} busy={busy} label="DONE" busyLabel="PROCESSING..." />
    </OnboardingPage>
  );
}
