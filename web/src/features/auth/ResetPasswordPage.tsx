import { useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert, Button } from '../../components/ui';
import { AUTH_ROUTES } from '../../config/constants';
import { PageHeader } from '../../components/PageHeader';
import type { FieldErrors } from '../../lib/validation';
import { signOut, updatePassword, verifyRecoveryLink } from './api';
import { validateNewPassword } from './credentials';
import { ForgotPasswordForm } from './ForgotPasswordForm';
import { PasswordField } from './PasswordField';
import { useSecondStep } from './useSecondStep';
import type { SignInNotice } from './SignInPage';

type Stage = 'bad-link' | 'choose';

/** The green notice /sign_up shows after a password change. */
export const PASSWORD_CHANGED_NOTICE = 'Your password has been changed. Sign in with your new password.';

/**
 * ResetPasswordPage is /reset_password, opened from the e-mailed link
 * (?token_hash=...&type=recovery). It asks for the new password twice;
 * only SAVE NEW PASSWORD uses the link (mail systems open links to scan
 * them, so opening the page spends nothing): it checks the link, saves the
 * password, signs out everywhere and sends the person to sign in with the
 * new password. A bad, used or expired link offers to send a new one.
 */
export default function ResetPasswordPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const tokenHash = params.get('token_hash');
  const type = params.get('type');
  const linkLooksRight = Boolean(tokenHash) && (type === null || type === 'recovery');

  const [stage, setStage] = useState<Stage>(linkLooksRight ? 'choose' : 'bad-link');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<'password' | 'confirm'>>({});
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  // The link works once: after it signed in, a second try (a refused
  // password) only saves the password.
  const verified = useRef(false);
  // An account with two-step sign-in needs its code before a new password.
  const { guard, prompt: codeStep } = useSecondStep();

  async function handleSubmit(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    const problems = validateNewPassword(password, confirm);
    setFieldErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setError('');
    setSaving(true);
    if (!verified.current) {
      try {
        await verifyRecoveryLink(tokenHash!);
        verified.current = true;
      } catch (err) {
        console.error('Reset link refused', err);
        setSaving(false);
        setStage('bad-link');
        return;
      }
    }
    try {
      await guard(updatePassword)(password);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setSaving(false);
      return;
    }
    await signOut();
    const state: SignInNotice = { notice: PASSWORD_CHANGED_NOTICE };
    navigate(`${AUTH_ROUTES.signUp}?mode=login`, { replace: true, state });
  }

  return (
    <>
      <PageHeader title="Reset Password" />
      <main className="ui-main ui-main-xs">
        <div className="fk-paper fk-paper-line ui-card">
          {stage === 'bad-link' && (
            <div className="fk-stack fk-stack-xl">
              <Alert severity="error">
                This password reset link has expired or has already been used. Ask for a new one below.
              </Alert>
              <ForgotPasswordForm onBack={() => navigate(`${AUTH_ROUTES.signUp}?mode=login`)} />
            </div>
          )}
          {stage === 'choose' && (
            <form noValidate onSubmit={handleSubmit} className="fk-stack" aria-labelledby="new-password-heading">
              <h2 id="new-password-heading" className="fk-h2">
                Choose a new password
              </h2>
              {error && <Alert severity="error">{error}</Alert>}
              <PasswordField
                id="new-password"
                label="New password"
                value={password}
                onChange={(v) => {
                  setPassword(v);
                  setFieldErrors((f) => ({ ...f, password: undefined }));
                }}
                error={fieldErrors.password}
                autoComplete="new-password"
                disabled={saving}
              />
              <PasswordField
                id="confirm-password"
                label="Confirm new password"
                value={confirm}
                onChange={(v) => {
                  setConfirm(v);
                  setFieldErrors((f) => ({ ...f, confirm: undefined }));
                }}
                error={fieldErrors.confirm}
                autoComplete="new-password"
                disabled={saving}
              />
              <Button type="submit" variant="solid" size="large" disabled={saving} fullWidth>
                {saving ? 'SAVING...' : 'SAVE NEW PASSWORD'}
              </Button>
            </form>
          )}
          {stage === 'choose' && codeStep}
        </div>
      </main>
    </>
  );
}
