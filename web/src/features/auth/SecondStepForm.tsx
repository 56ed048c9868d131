import { useState, type FormEvent } from 'react';
import { Alert, Button } from '../../components/ui';
import { CodeField } from './CodeField';
import { isSixDigits, verifySecondStep } from './mfa';

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * SecondStepForm is the sign-in code step ('TWO-STEP SIGN-IN'): it asks for
 * the 6-digit code of the account's authenticator app, raises the session to
 * aal2 and then runs onVerified (whose error, if any, it shows). Used by the
 * sign-in page and by the founders' console for a password-only session, and,
 * with onCancel, by My account when an action needs the code (a heading of
 * the page's second level and Cancel instead of Use another account).
 */
export function SecondStepForm({
  onVerified,
  onOtherAccount,
  onCancel,
}: {
  onVerified: () => Promise<void>;
  onOtherAccount?: () => Promise<void>;
  onCancel?: () => void;
}) {
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);

  async function handleCode(e: FormEvent) {
    e.preventDefault();
    if (loading) return;
    if (!isSixDigits(code)) {
      setCodeError('Type the 6 digits your authenticator app shows.');
      return;
    }
    setCodeError(undefined);
    setError('');
    setLoading(true);
    try {
      await verifySecondStep(code.replace(/\s/g, ''));
      await onVerified();
    } catch (err) {
      setError(messageOf(err));
      setLoading(false);
    }
  }

  return (
    <form noValidate onSubmit={handleCode} aria-label="Two-step sign-in" className="fk-stack fk-stack-l">
      <div>
        {onCancel ? <h2 className="fk-h2">TWO-STEP SIGN-IN</h2> : <h1 className="fk-h1">TWO-STEP SIGN-IN</h1>}
        <p className="fk-sub">
          {onCancel && 'Two-step sign-in is on for your account: this needs your code too. '}
          Open your authenticator app and type the 6-digit code it shows for Salaula.
        </p>
      </div>
      {error && <Alert severity="error">{error}</Alert>}
      <CodeField
        id="code"
        value={code}
        onChange={(v) => {
          setCode(v);
          setCodeError(undefined);
        }}
        error={codeError}
        disabled={loading}
      />
      <Button type="submit" variant="solid" size="large" busy={loading} fullWidth>
        VERIFY
      </Button>
      {onCancel ? (
        <Button variant="link" onClick={onCancel} disabled={loading}>
          Cancel
        </Button>
      ) : (
        onOtherAccount && (
          <Button variant="link" onClick={() => void onOtherAccount()} disabled={loading}>
            Use another account
          </Button>
        )
      )}
    </form>
  );
}
