import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import MaleIcon from '@mui/icons-material/Male';
import FemaleIcon from '@mui/icons-material/Female';
import PersonIcon from '@mui/icons-material/Person';
import MicOffIcon from '@mui/icons-material/MicOff';
import { Link as RouterLink } from 'react-router';
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

const GENDER_ICONS: Record<string, typeof MaleIcon> = { male: MaleIcon, female: FemaleIcon };

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
    <FormControl error={Boolean(error)} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <FormLabel component="legend">Gender</FormLabel>
      <Box role="radiogroup" aria-label="Gender" sx={{ display: 'flex', gap: 3, mt: 1 }}>
        {options.map((o) => {
          const Icon = GENDER_ICONS[o.value.toLowerCase()] ?? PersonIcon;
          const on = value === o.value;
          return (
            <Box key={o.value} sx={{ textAlign: 'center' }}>
              <ButtonBase
                role="radio"
                aria-checked={on}
                aria-label={o.label}
                disabled={disabled}
                onClick={() => onChange(o.value)}
                sx={{
                  width: 64,
                  height: 64,
                  borderRadius: '50%',
                  border: '3px solid',
                  borderColor: on ? 'primary.main' : 'divider',
                  bgcolor: on ? 'primary.main' : 'background.paper',
                  color: on ? 'primary.contrastText' : 'text.primary',
                }}
              >
                <Icon fontSize="large" />
              </ButtonBase>
              <Typography variant="body2" aria-hidden sx={{ mt: 0.5 }}>
                {o.label}
              </Typography>
            </Box>
          );
        })}
      </Box>
      {error && <FormHelperText role="alert">{error}</FormHelperText>}
    </FormControl>
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
      slotProps={{
        input: { startAdornment: <InputAdornment position="start">{PHONE_PREFIX}</InputAdornment> },
        htmlInput: { inputMode: 'tel', maxLength: 16 },
      }}
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
    <TextField
      select
      fullWidth
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{ select: { native: true }, htmlInput: { 'aria-label': 'Inspiration' } }}
    >
      <option value="">Inspiration</option>
      {INSPIRATIONS.map((i) => (
        <option key={i} value={i}>
          {i}
        </option>
      ))}
    </TextField>
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
  return (
    <FormControl error={Boolean(error)} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <FormLabel component="legend">Current business mode</FormLabel>
      <RadioGroup value={value} onChange={(e) => onChange(e.target.value)}>
        {BUSINESS_MODE_OPTIONS.map(({ title, Icon, description }) => (
          <FormControlLabel
            key={title}
            value={title}
            disabled={disabled}
            control={<Radio />}
            label={
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5 }}>
                <Icon aria-hidden color="primary" />
                <span>
                  <Typography component="span" sx={{ fontWeight: 700, display: 'block' }}>
                    {title}
                  </Typography>
                  <Typography component="span" variant="body2" color="text.secondary">
                    {description}
                  </Typography>
                </span>
              </Box>
            }
          />
        ))}
      </RadioGroup>
      {error && <FormHelperText role="alert">{error}</FormHelperText>}
    </FormControl>
  );
}

/** A labelled checkbox with an error line under it. */
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
  return (
    <FormControl error={Boolean(error)}>
      <FormControlLabel
        control={<Checkbox checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />}
        label={label}
      />
      {error && <FormHelperText role="alert">{error}</FormHelperText>}
    </FormControl>
  );
}

/** TermsCheckbox: accept the Terms and Conditions (the link opens in a new tab, so the form is kept). */
export function TermsCheckbox(props: { checked: boolean; onChange: (v: boolean) => void; disabled?: boolean; error?: string }) {
  return (
    <CheckField
      {...props}
      label={
        <>
          I accept the{' '}
          <Link component={RouterLink} to="/termsandconditions" target="_blank" rel="noopener">
            Terms and Conditions
          </Link>
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
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <IconButton disabled aria-label={`${label} (not available yet)`}>
        <MicOffIcon />
      </IconButton>
      <Typography variant="body2" color="text.secondary">
        {label}: not available yet
      </Typography>
    </Box>
  );
}

/** ErrorBanner: the form's error banner (an alert read out by screen readers). */
export function ErrorBanner({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <Alert severity="error" role="alert" sx={{ my: 2 }}>
      {children}
    </Alert>
  );
}

/** SectionTitle: a numbered or plain section heading of an onboarding form. */
export function SectionTitle({ children }: { children: ReactNode }) {
  return (
    <Typography variant="h6" component="h2" sx={{ fontWeight: 800, mt: 3, mb: 1 }}>
      {children}
    </Typography>
  );
}
