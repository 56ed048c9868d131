import { useState, type FormEvent } from 'react';
import { Alert, Button } from '../../components/ui';
import { requestPasswordReset } from './api';
import { validateEmail } from './credentials';
import { EmailField } from './EmailField';

/** Props of ForgotPasswordForm. */
export interface ForgotPasswordFormProps {
  /** The e-mail already typed elsewhere, to save typing it again. */
  initialEmail?: string;
  /** Shows a 'Back to sign in' button that calls this. */
  onBack?: () => void;
}

/**
 * ForgotPasswordForm asks for an e-mail address and has the service send a
 * password reset link to it. It says the same thing whether or not an account
 * exists, so it does not tell strangers who has an account.
 */
export function ForgotPasswordForm({ initialEmail = '', onBack }: ForgotPasswordFormProps) {
  const [email, setEmail] = useState(initialEmail);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const [error, setError] = useState('');
  const [sentTo, setSentTo] = useState('');

  async function handleSubmit(e: FormEvent) {
    e.preventDefault();
    if (sending) return;
    const problem = validateEmail(email);
    setFieldError(problem);
    if (problem) return;
    setError('');
    setSentTo('');
    setSending(true);
    try {
      await requestPasswordReset(email);
      setSentTo(email.trim());
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setSending(false);
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit} aria-labelledby="forgot-heading" className="fk-stack">
      <h2 id="forgot-heading" className="fk-h2">
        Reset your password
      </h2>
      <p className="fk-body2 muted">
        Enter the e-mail address of your account and we will send you a link to choose a new password.
      </p>
      {error && <Alert severity="error">{error}</Alert>}
      {sentTo && (
        <Alert severity="success" role="alert">
          If an account exists for {sentTo}, we have sent it a link to reset your password. Check your inbox
          (and your spam folder); the link works once.
        </Alert>
      )}
      <EmailField
        id="forgot-email"
        value={email}
        onChange={(v) => {
          setEmail(v);
          setFieldError(undefined);
        }}
        error={fieldError}
        disabled={sending}
      />
      <Button type="submit" variant="solid" size="large" disabled={sending} fullWidth>
        {sending ? 'SENDING...' : 'SEND RESET LINK'}
      </Button>
      {onBack && (
        <Button variant="plain" onClick={onBack} disabled={sending}>
          Back to sign in
        </Button>
      )}
    </form>
  );
}
