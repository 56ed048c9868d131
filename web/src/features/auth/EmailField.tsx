import { TextField } from '../../components/ui';

/** Props of EmailField. */
export interface EmailFieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  disabled?: boolean;
}

/** EmailField is the labelled 'Email' input of the auth forms, with its error under it. */
export function EmailField({ id, value, onChange, error, disabled }: EmailFieldProps) {
  return (
    <TextField
      id={id}
      label="Email"
      type="email"
      autoComplete="email"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={Boolean(error)}
      helperText={error}
      disabled={disabled}
      fullWidth
    />
  );
}
