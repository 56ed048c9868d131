import { TextField } from '../../components/ui';

/** Props of CodeField. */
export interface CodeFieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  disabled?: boolean;
}

/**
 * CodeField is the 6-digit code of an authenticator app: a numeric keypad on
 * phones, and the browser may fill it from a one-time-code source.
 */
export function CodeField({ id, value, onChange, error, disabled }: CodeFieldProps) {
  return (
    <TextField
      id={id}
      label="6-digit code"
      value={value}
      onChange={(e) => onChange(e.target.value.replace(/[^\d ]/g, '').slice(0, 7))}
      error={Boolean(error)}
      helperText={error ?? 'The code your authenticator app shows for Salaula.'}
      autoComplete="one-time-code"
      disabled={disabled}
      fullWidth
      inputProps={{ inputMode: 'numeric', pattern: '[0-9 ]*', maxLength: 7 }}
    />
  );
}
