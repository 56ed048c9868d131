import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button } from '../../components/ui';
import { AUTH_ROUTES } from '../../config/constants';
import { PageHeader } from '../../components/PageHeader';
import type { FieldErrors } from '../../lib/validation';
import { messageOf } from '../../lib/functionError';
import { withQueries } from '../../lib/QueryProvider';
import { LinkRefused, checkRecoveryLink, signOut, updatePassword } from './api';
import { BusyMessage } from './BusyMessage';
import { validateNewPassword } from './credentials';
import { ForgotPasswordForm } from './ForgotPasswordForm';
import { PasswordField } from './PasswordField';
import { useSecondStep } from './useSecondStep';
import type { SignInNotice } from './SignInPage';

/** The green notice /sign_up shows after a password change. */
export const PASSWORD_CHANGED_NOTICE = 'Your password has been changed. Sign in with your new password.';

/** What the address the page was opened with says about the link. */
type LinkInAddress = { kind: 'token'; tokenHash: string } | { kind: 'session' } | { kind: 'bad' };

/**
 * linkInAddress reads the e-mailed link from the page's address: its
 * token_hash (?token_hash=...&type=recovery), or the session a link that
 * passed by the service's verify page brings (#access_token=...&type=recovery,
 * which supabase-js takes), or the service's refusal of it (#error=...), or
 * nothing usable.
 */
function linkInAddress(search: URLSearchParams, hash: string): LinkInAddress {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  if (fragment.has('error') || fragment.has('error_description')) return { kind: 'bad' };
  const tokenHash = search.get('token_hash');
  const type = search.get('type');
  if (tokenHash && (type === null || type === 'recovery')) return { kind: 'token', tokenHash };
  if (fragment.has('access_token') && fragment.get('type') === 'recovery') return { kind: 'session' };
  return { kind: 'bad' };
}

/**
 * ResetPasswordPage is /reset_password, opened from the e-mailed link
 * (?token_hash=...&type=recovery). It checks the link as it opens
 * (checkRecoveryLink: the service spends a reset link only when the new
 * password is set, so opening the page, as mail systems do to scan links,
 * spends nothing), then asks for the new password twice, saves it, signs
 * out everywhere and sends the person to sign in with it. A bad, used or
 * expired link says so at once and offers to send a new one.
 */
function ResetPasswordPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { hash } = useLocation();
  // Read once, as the page opens: supabase-js may clear the address's fragment.
  const [link] = useState(() => linkInAddress(params, hash));
  const check = useQuery({
    queryKey: ['auth', 'recovery-link', link.kind === 'token' ? link.tokenHash : link.kind],
    queryFn: () => checkRecoveryLink(link.kind === 'token' ? link.tokenHash : null).then(() => true),
    enabled: link.kind !== 'bad',
    retry: false,
    // Checked once per opening: a later visit (the link spent meanwhile) checks again.
    staleTime: Infinity,
    gcTime: 0,
  });
  const badLink = link.kind === 'bad' || check.error instanceof LinkRefused;

  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<'password' | 'confirm'>>({});
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
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
    try {
      await guard(updatePassword)(password);
    } catch (err) {
      setError(messageOf(err));
      setSaving(false);
      return;
    }
    await signOut();
    const state: SignInNotice = { notice: PASSWORD_CHANGED_NOTICE };
    navigate(AUTH_ROUTES.signIn, { replace: true, state });
  }

  return (
    <>
      <PageHeader title="Reset Password" />
      <main className="ui-main ui-main-xs">
        <div className="fk-paper fk-paper-line ui-card">
          {!badLink && check.isPending && <BusyMessage text="Checking your link..." />}
          {!badLink && check.isError && (
            <Alert severity="error" action={<Button color="inherit" onClick={() => void check.refetch()}>Try again</Button>}>
              {messageOf(check.error)}
            </Alert>
          )}
          {badLink && (
            <div className="fk-stack fk-stack-xl">
              <Alert severity="error">
                This password reset link has expired or has already been used. Ask for a new one below.
              </Alert>
              <ForgotPasswordForm onBack={() => navigate(AUTH_ROUTES.signIn)} />
            </div>
          )}
          {check.isSuccess && (
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
          {check.isSuccess && codeStep}
        </div>
      </main>
    </>
  );
}

export default withQueries(ResetPasswordPage);
