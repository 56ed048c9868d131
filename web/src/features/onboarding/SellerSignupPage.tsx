import { useNavigate, useSearchParams } from 'react-router';
import { TextField } from '../../components/ui';
import { MAX_SELLER_LOGOS } from '../../config/constants';
import { useAuth } from '../auth/AuthProvider';
import { ImageUploadArea } from './components/ImageUploadArea';
import { BusinessModePicker, GENDERS_SELLER, GenderPicker, PhoneField, SectionTitle, ParentalConsentCheckbox, TermsCheckbox } from './components/FormPieces';
import { FormBanner, OnboardingPage, SubmitButton, useOnboardingSubmit } from './components/OnboardingForm';
import { submitSeller } from './flows';
import { roleFrom } from './payloads';
import { ACCOUNT_PATH } from '../../config/constants';
import { sellerFieldsFrom, useEditProfile, useFinishedProfileGoesToAccount } from './savedProfile';
import { useFields } from './useFields';
import { useImagePicker } from './useImagePicker';
import { logoPath } from './api';
import { isMinor, validateSeller, type SellerErrorKey, type SellerFields } from './validation';

/** Empty seller fields. */
export const EMPTY_SELLER: SellerFields = {
  full_name: '',
  location: '',
  age: '',
  phone_number: '',
  gender: '',
  parental_consent: false,
  business_name: '',
  registration_number: '',
  business_mode: '',
  terms: false,
};

/**
 * SellerSignupPage (/sellersignup?role=..., default seller): validates,
 * uploads the logos, POSTs onboard-seller, runs login(), alerts 'Seller
 * profile created successfully!' and goes to /thanks. Every input is
 * disabled while it works; errors show per field and in an 'Error:' banner.
 */
export default function SellerSignupPage() {
  const [params] = useSearchParams();
  const role = roleFrom(params.get('role'), 'seller');
  useFinishedProfileGoesToAccount(params.get('edit') === '1');
  const navigate = useNavigate();
  const { login } = useAuth();
  const { values, set, errors, setErrors, text, reset } = useFields<SellerFields, SellerErrorKey>(EMPTY_SELLER);
  const logos = useImagePicker(MAX_SELLER_LOGOS, logoPath);
  const edit = useEditProfile(params.get('edit') === '1', (p) => {
    reset(sellerFieldsFrom(p));
    logos.preload(p.logo_urls ?? []);
  });
  const { busy, banner, onSubmit } = useOnboardingSubmit(setErrors, {
    validate: () => validateSeller(values, logos.items.length),
    send: () => submitSeller(role, values, logos),
    done: () => {
      if (edit.editing) {
        navigate(ACCOUNT_PATH, { state: { saved: true } });
        return;
      }
      login();
      window.alert('Seller profile created successfully!');
      navigate('/thanks');
    },
  });
  const logoErrors = logos.items.length > 0 ? { ...errors, logos: undefined } : errors;

  return (
    <OnboardingPage title={edit.editing ? 'Edit Your Seller Profile' : 'Create Your Seller Profile'} onSubmit={onSubmit}>
      <FormBanner message={banner || edit.error} errors={logoErrors} />
      <SectionTitle>Your Details</SectionTitle>
      <TextField {...text('full_name', 'Full name', busy)} autoComplete="name" />
      <PhoneField {...text('phone_number', 'Phone number', busy)} />
      <TextField {...text('location', 'Location', busy)} autoComplete="address-level2" />
      <TextField {...text('age', 'Age', busy)} inputProps={{ inputMode: 'numeric', maxLength: 3 }} />
      <GenderPicker value={values.gender} onChange={(v) => set('gender', v)} options={GENDERS_SELLER} disabled={busy} error={errors.gender} />
      <SectionTitle>Business Details</SectionTitle>
      <TextField {...text('business_name', 'Business name', busy)} autoComplete="organization" />
      <TextField {...text('registration_number', 'Registration number (optional)', busy)} />
      <BusinessModePicker value={values.business_mode} onChange={(v) => set('business_mode', v)} disabled={busy} error={errors.business_mode} />
      <SectionTitle>Logo or brand images</SectionTitle>
      <ImageUploadArea
        picker={logos}
        itemName="Logo"
        addLabel="Add logo or brand images"
        hint={`Up to ${MAX_SELLER_LOGOS} images.`}
        disabled={busy}
        error={logoErrors.logos}
      />
      {isMinor(values.age) && (
        <ParentalConsentCheckbox checked={values.parental_consent} onChange={(v) => set('parental_consent', v)} disabled={busy} error={errors.parental_consent} />
      )}
      <TermsCheckbox checked={values.terms} onChange={(v) => set('terms', v)} disabled={busy} error={errors.terms} />
      <SubmitButton uploading={logos.pending} busy={busy || edit.loading} label={edit.editing ? 'SAVE CHANGES' : 'FINISH & CREATE PROFILE'} busyLabel={edit.loading ? 'LOADING...' : 'PROCESSING...'} />
    </OnboardingPage>
  );
}
