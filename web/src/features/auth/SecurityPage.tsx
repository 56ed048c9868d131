import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button } from '../../components/ui';
import { messageOf } from '../../lib/functionError';
import { BusyMessage } from './BusyMessage';
import { CodeField } from './CodeField';
import { RequireAuth } from './RequireAuth';
import { isSixDigits, startEnrolment, turnOff, verifiedFactor, verifyCode, type Enrolment, type TotpFactor } from './mfa';

type View = { kind: 'loading' } | { kind: 'off' } | { kind: 'enrolling'; enrolment: Enrolment } | { kind: 'on'; factor: TotpFactor };

/**
 * Two-step sign-in settings (/account/security): turn it on by scanning a
 * QR code with any authenticator app (or typing the secret) and confirming
 * a code; turn it off with a current code. Self-contained, so the account
 * page can link to it. The founders' console shows it as its enrolment
 * walkthrough: notice says why it is asked, onTurnedOn runs once the code
 * is confirmed (the session is then two-step, aal2).
 */
export function TwoStepSettings({ notice, onTurnedOn }: { notice?: string; onTurnedOn?: () => void } = {}) {
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [error, setError] = useState('');
  const [success, setSuccess] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let cancelled = false;
    verifiedFactor()
      .then((f) => !cancelled && setView(f ? { kind: 'on', factor: f } : { kind: 'off' }))
      .catch((err) => {
        if (cancelled) return;
        setError(messageOf(err));
        setView({ kind: 'off' });
      });
    return () => {
      cancelled = true;
    };
  }, []);

  async function run(work: () => Promise<void>) {
    setError('');
    setSuccess('');
    setBusy(true);
    try {
      await work();
    } catch (err) {
      setError(messageOf(err));
    }
    setBusy(false);
  }

  function checkCode(): string | null {
    const digits = code.replace(/\s/g, '');
    if (!isSixDigits(digits)) {
      setCodeError('Type the 6 digits your authenticator app shows.');
      return null;
    }
    setCodeError(undefined);
    return digits;
  }

  function begin() {
    void run(async () => {
      const enrolment = await startEnrolment();
      setCode('');
      setView({ kind: 'enrolling', enrolment });
    });
  }

  function confirm(e: FormEvent) {
    e.preventDefault();
    if (view.kind !== 'enrolling' || busy) return;
    const digits = checkCode();
    if (!digits) return;
    void run(async () => {
      await verifyCode(view.enrolment.factorId, digits);
      setCode('');
      setView({ kind: 'on', factor: { id: view.enrolment.factorId, friendlyName: 'Authenticator app' } });
      setSuccess('Two-step sign-in is on. From now on, signing in asks for a code from your app.');
      onTurnedOn?.();
    });
  }

  function switchOff(e: FormEvent) {
    e.preventDefault();
    if (view.kind !== 'on' || busy) return;
    const digits = checkCode();
    if (!digits) return;
    void run(async () => {
      await verifyCode(view.factor.id, digits);
      await turnOff(view.factor.id);
      setCode('');
      setView({ kind: 'off' });
      setSuccess('Two-step sign-in is off. Signing in asks for your password only.');
    });
  }

  const submit = (label: string) => (
    <Button type="submit" variant="solid" size="large" busy={busy} fullWidth>
      {label}
    </Button>
  );
  const codeField = (
    <CodeField
      id="security-code"
      value={code}
      onChange={(v) => {
        setCode(v);
        setCodeError(undefined);
      }}
      error={codeError}
      disabled={busy}
    />
  );

  return (
    <main className="ui-main ui-main-xs">
      <div className="fk-paper fk-paper-line ui-card">
        <div className="fk-stack fk-stack-l">
          <div>
            <h1 className="fk-h1">Two-step sign-in</h1>
            <p className="fk-sub">
              Besides your password, signing in asks for a code from an authenticator app on your phone, so a stolen
              password alone cannot open your account.
            </p>
          </div>
          {notice && <Alert severity="info">{notice}</Alert>}
          {error && <Alert severity="error">{error}</Alert>}
          {success && (
            <Alert severity="success" role="status">
              {success}
            </Alert>
          )}
          {view.kind === 'loading' && <BusyMessage text="Checking your two-step sign-in..." />}
          {view.kind === 'off' && (
            <>
              <p className="fk-p">Two-step sign-in is off.</p>
              <Button variant="solid" size="large" onClick={begin} disabled={busy} aria-busy={busy} fullWidth>
                TURN ON TWO-STEP SIGN-IN
              </Button>
            </>
          )}
          {view.kind === 'enrolling' && (
            <form noValidate onSubmit={confirm} className="fk-stack" aria-label="Turn on two-step sign-in">
              <h2 className="fk-h3">1. Scan this QR code with your authenticator app</h2>
              <img src={view.enrolment.qrCode} alt="QR code to scan with your authenticator app" className="totp-qr" />
              <p className="fk-body2">
                Cannot scan it? Type this key into the app instead:{' '}
                <code data-testid="totp-secret" className="totp-secret">
                  {view.enrolment.secret}
                </code>
              </p>
              <h2 className="fk-h3">2. Type the code the app shows</h2>
              {codeField}
              {submit('TURN ON')}
            </form>
          )}
          {view.kind === 'on' && (
            <form noValidate onSubmit={switchOff} className="fk-stack" aria-label="Turn off two-step sign-in">
              <p className="fk-p">Two-step sign-in is on.</p>
              <p className="fk-body2 fk-muted">To turn it off, type a current code from your authenticator app.</p>
              {codeField}
              {submit('TURN OFF TWO-STEP SIGN-IN')}
            </form>
          )}
        </div>
      </div>
    </main>
  );
}

/** SecurityPage is /account/security, for signed-in people only. */
export default function SecurityPage() {
  return (
    <RequireAuth>
      <TwoStepSettings />
    </RequireAuth>
  );
}
