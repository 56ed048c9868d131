import { useState } from 'react';
import { FormIcon, TextField } from '../../components/ui';

/** Props of PasswordField. */
export interface PasswordFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  autoComplete: 'current-password' | 'new-password';
  disabled?: boolean;
}

/**
 * PasswordField is a password input with a show/hide button labelled for
 * screen readers ('Show password' / 'Hide password').
 */
export function PasswordField({ id, label, value, onChange, error, autoComplete, disabled }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      id={id}
      label={label}
      type={visible ? 'text' : 'password'}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={Boolean(error)}
      helperText={error}
      autoComplete={autoComplete}
      disabled={disabled}
      fullWidth
      endAdornment={
        <button
          type="button"
          className="fk-icon-btn"
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-controls={id}
          onClick={() => setVisible((v) => !v)}
        >
          <FormIcon name={visible ? 'visibilityOff' : 'visibility'} />
        </button>
      }
    />
  );
}
