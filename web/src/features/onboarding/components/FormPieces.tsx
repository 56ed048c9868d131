import { useId, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { Alert, Checkbox, FormIcon, RadioGroup, Select, TextField, cx, type FormIconName, type TextFieldProps } from '../../../components/ui';
import '../../../styles/onboarding.css';
import { INSPIRATIONS, PHONE_PREFIX } from '../../../config/constants';
import { BUSINESS_MODE_OPTIONS } from '../data/businessModes';

/** One choice of the gender picker: the value sent and the label shown. */
export interface GenderOption {
  value: string;
  label: string;
}

/** Male and Female, as the onboarding payload spells them (the profile half accepts only these). */
export const GENDERS_PROFILE: GenderOption[] = [
  { value: 'Male', label: 'Male' },
  { value: 'Female', label: 'Female' },
];

/**
 * The static form's three choices (spec: male, female, other), used by the
 * seller form: the server accepts Other for a seller only.
 */
export const GENDERS_SELLER: GenderOption[] = [
  { value: 'male', label: 'Male' },
  { value: 'female', label: 'Female' },
  { value: 'other', label: 'Other' },
];

const GENDER_ICONS: Record<string, FormIconName> = { male: 'male', female: 'female' };

/** GenderPicker: round icon buttons acting as a radio group. */
export function GenderPicker({
  value,
  onChange,
  options,
  disabled,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  options: GenderOption[];
  disabled?: boolean;
  error?: string;
}) {
  return (
    <fieldset className={cx('ob-fieldset', error && 'fk-error')}>
      <legend className="ob-legend">Gender</legend>
      <div role="radiogroup" aria-label="Gender" aria-invalid={error ? true : undefined} className="ob-genders">
        {options.map((o) => {
          const on = value === o.value;
          return (
            <div key={o.value} className="ob-gender">
              <button
                type="button"
                role="radio"
                aria-checked={on}
                aria-label={o.label}
                disabled={disabled}
                onClick={() => onChange(o.value)}
                className="ob-gender-btn"
              >
                <FormIcon name={GENDER_ICONS[o.value.toLowerCase()] ?? 'person'} />
              </button>
              <span className="ob-gender-label" aria-hidden>
                {o.label}
              </span>
            </div>
          );
        })}
      </div>
      {error && (
        <p className="fk-helper" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** PhoneField: a phone number input with the fixed +260 prefix. */
export function PhoneField(props: TextFieldProps) {
  return (
    <TextField
      label="Phone number"
      type="tel"
      autoComplete="tel-national"
      placeholder="97 123 4567"
      {...props}
      startAdornment={PHONE_PREFIX}
      inputProps={{ inputMode: 'tel', maxLength: 16 }}
    />
  );
}

/** InspirationSelect: the eight inspirations in a native dropdown, placeholder 'Inspiration'. */
export function InspirationSelect({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  return (
    <Select fullWidth value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)} inputProps={{ 'aria-label': 'Inspiration' }}>
      <option value="">Inspiration</option>
      {INSPIRATIONS.map((i) => (
        <option key={i} value={i}>
          {i}
        </option>
      ))}
    </Select>
  );
}

/** BusinessModePicker: the four business modes, one choice, each with an icon and a line. */
export function BusinessModePicker({
  value,
  onChange,
  disabled,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  error?: string;
}) {
  const name = `business-mode${useId().replace(/:/g, '')}`;
  return (
    <RadioGroup
      label="Current business mode"
      name={name}
      className="ob-modes"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      disabled={disabled}
      error={Boolean(error)}
      helperText={error}
      helperRole="alert"
      options={BUSINESS_MODE_OPTIONS.map(({ title, icon, description }) => ({
        value: title,
        label: (
          <span className="ob-mode">
            <FormIcon name={icon} />
            <span>
              <span className="ob-mode-title">{title}</span>
              <span className="ob-mode-line">{description}</span>
            </span>
          </span>
        ),
      }))}
    />
  );
}

/** A labelled checkbox with an error line under it (read out as an alert). */
function CheckField({
  checked,
  onChange,
  disabled,
  error,
  label,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  error?: string;
  label: ReactNode;
}) {
  return <Checkbox checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} label={label} error={error} errorRole="alert" />;
}

/** TermsCheckbox: accept the Terms and Conditions (the link opens in a new tab, so the form is kept). */
export function TermsCheckbox(props: { checked: boolean; onChange: (v: boolean) => void; disabled?: boolean; error?: string }) {
  return (
    <CheckField
      {...props}
      label={
        <>
          I accept the{' '}
          <RouterLink to="/termsandconditions" target="_blank" rel="noopener" className="ob-link">
            Terms and Conditions
          </RouterLink>
        </>
      }
    />
  );
}

/** ParentalConsentCheckbox: shown to people under 18 (the Terms ask for a parent's or guardian's consent). */
export function ParentalConsentCheckbox(props: { checked: boolean; onChange: (v: boolean) => void; disabled?: boolean; error?: string }) {
  return <CheckField {...props} label="I am under 18 and a parent or guardian agrees to my using Salaula" />;
}

/** ClearanceCheckbox: join the Wardrobe Clearance Program. */
export function ClearanceCheckbox(props: { checked: boolean; onChange: (v: boolean) => void; disabled?: boolean }) {
  return <CheckField {...props} label="Join the Wardrobe Clearance Program" />;
}

/** VoiceInputButton: the voice-input idea, shown but disabled. */
export function VoiceInputButton({ label = 'Voice input' }: { label?: string }) {
  return (
    <div className="ob-voice">
      <button type="button" className="icon-btn" disabled aria-label={`${label} (not available yet)`}>
        <FormIcon name="micOff" />
      </button>
      <span className="fk-body2 ob-muted">{label}: not available yet</span>
    </div>
  );
}

/** ErrorBanner: the form's error banner (an alert read out by screen readers). */
export function ErrorBanner({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <Alert severity="error" role="alert" className="ob-banner">
      {children}
    </Alert>
  );
}

/** SectionTitle: a numbered or plain section heading of an onboarding form. */
export function SectionTitle({ children }: { children: ReactNode }) {
  return <h2 className="ob-title">{children}</h2>;
}
