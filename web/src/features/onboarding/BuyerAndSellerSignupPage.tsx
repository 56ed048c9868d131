import { useNavigate } from 'react-router';
import { TextField } from '../../components/ui';
import { MAX_SELLER_LOGOS, STATIC_FORM_MAX_IMAGES } from '../../config/constants';
import { useAuth } from '../auth/AuthProvider';
import { AestheticGrid } from './components/AestheticGrid';
import { ImageUploadArea } from './components/ImageUploadArea';
import { BusinessModePicker, ClearanceCheckbox, GENDERS_PROFILE, GenderPicker, SectionTitle, ParentalConsentCheckbox, TermsCheckbox } from './components/FormPieces';
import { BuyerDetailsFields, EMPTY_BUYER, FormBanner, OnboardingPage, SubmitButton, toggled, useOnboardingSubmit } from './components/OnboardingForm';
import { submitBuyerAndSeller } from './flows';
import { useFields } from './useFields';
import { useImagePicker } from './useImagePicker';
import { logoPath, photoPath } from './api';
import { EMPTY_SELLER } from './SellerSignupPage';
import { useFinishedProfileGoesToAccount } from './savedProfile';
import { isMinor, validateBuyerAndSeller, type BuyerAndSellerErrorKey, type BuyerAndSellerFields } from './validation';

/**
 * BuyerAndSellerSignupPage (/buyerandsellersignup): the combined form,
 * finished: it uploads photos and logos, then sends the buyer half to
 * onboard-new-user and the seller half to onboard-seller, both with role
 * buyer_and_seller, and goes to /thanks.
 */
export default function BuyerAndSellerSignupPage() {
  const navigate = useNavigate();
  const { login } = useAuth();
  useFinishedProfileGoesToAccount();
  const form = useFields<BuyerAndSellerFields, BuyerAndSellerErrorKey>({ ...EMPTY_SELLER, ...EMPTY_BUYER });
  const { values, set, errors, setErrors, text } = form;
  const photos = useImagePicker(STATIC_FORM_MAX_IMAGES, photoPath);
  const logos = useImagePicker(MAX_SELLER_LOGOS, logoPath);
  const { busy, banner, onSubmit } = useOnboardingSubmit(setErrors, {
    validate: () => validateBuyerAndSeller(values, logos.items.length, photos.items.length),
    send: () => submitBuyerAndSeller(values, photos, logos),
    done: () => {
      login();
      window.alert('Profile created successfully!');
      navigate('/thanks');
    },
  });
  const shown = logos.items.length > 0 ? { ...errors, logos: undefined } : errors;

  return (
    <OnboardingPage title="Create Your Buyer and Seller Profile" onSubmit={onSubmit}>
      <FormBanner message={banner} errors={shown} />
      <SectionTitle>Your business</SectionTitle>
      <TextField {...text('business_name', 'Business name', busy)} autoComplete="organization" />
      <TextField {...text('registration_number', 'Registration number (optional)', busy)} />
      <SectionTitle>Your details</SectionTitle>
      <BuyerDetailsFields form={form} busy={busy} voiceLabel="Voice note (1 minute)" />
      <SectionTitle>Logo or brand images</SectionTitle>
      <ImageUploadArea picker={logos} itemName="Logo" addLabel="Add logo or brand images" hint={`Up to ${MAX_SELLER_LOGOS} images.`} disabled={busy} error={shown.logos} />
      <BusinessModePicker value={values.business_mode} onChange={(v) => set('business_mode', v)} disabled={busy} error={errors.business_mode} />
      <GenderPicker value={values.gender} onChange={(v) => set('gender', v)} options={GENDERS_PROFILE} disabled={busy} error={errors.gender} />
      <SectionTitle>Full-body photos (optional)</SectionTitle>
      <ImageUploadArea picker={photos} itemName="Photo" addLabel="Add full-body photos" hint="We recommend 3 clear full-body photos." disabled={busy} error={errors.images} />
      <SectionTitle>Your clothing aesthetics</SectionTitle>
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
      <SubmitButton uploading={photos.pending + logos.pending} busy={busy} label="FINISH & CREATE PROFILE" busyLabel="PROCESSING..." />
    </OnboardingPage>
  );
}
