import { useEffect, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BusyMessage } from './BusyMessage';
import { CodeField } from './CodeField';
import { RequireAuth } from './RequireAuth';
import { isSixDigits, startEnrolment, turnOff, verifiedFactor, verifyCode, type Enrolment, type TotpFactor } from './mfa';

type View = { kind: 'loading' } | { kind: 'off' } | { kind: 'enrolling'; enrolment: Enrolment } | { kind: 'on'; factor: TotpFactor };

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

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
    <Button
      type="submit"
      variant="contained"
      size="large"
      disabled={busy}
      aria-busy={busy}
      startIcon={busy ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
      fullWidth
    >
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
    <Container component="main" maxWidth="xs" sx={{ py: { xs: 3, sm: 6 }, px: 2 }}>
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
        <Stack spacing={2.5}>
          <Box>
            <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
              Two-step sign-in
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 0.5 }}>
              Besides your password, signing in asks for a code from an authenticator app on your phone, so a stolen
              password alone cannot open your account.
            </Typography>
          </Box>
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
              <Typography>Two-step sign-in is off.</Typography>
              <Button variant="contained" size="large" onClick={begin} disabled={busy} aria-busy={busy} fullWidth>
                TURN ON TWO-STEP SIGN-IN
              </Button>
            </>
          )}
          {view.kind === 'enrolling' && (
            <Stack component="form" noValidate onSubmit={confirm} spacing={2} aria-label="Turn on two-step sign-in">
              <Typography component="h2" variant="h6">
                1. Scan this QR code with your authenticator app
              </Typography>
              <Box
                component="img"
                src={view.enrolment.qrCode}
                alt="QR code to scan with your authenticator app"
                sx={{ width: 200, height: 200, alignSelf: 'center', imageRendering: 'pixelated' }}
              />
              <Typography variant="body2">
                Cannot scan it? Type this key into the app instead:{' '}
                <Box component="code" data-testid="totp-secret" sx={{ wordBreak: 'break-all', fontWeight: 700 }}>
                  {view.enrolment.secret}
                </Box>
              </Typography>
              <Typography component="h2" variant="h6">
                2. Type the code the app shows
              </Typography>
              {codeField}
              {submit('TURN ON')}
            </Stack>
          )}
          {view.kind === 'on' && (
            <Stack component="form" noValidate onSubmit={switchOff} spacing={2} aria-label="Turn off two-step sign-in">
              <Typography>Two-step sign-in is on.</Typography>
              <Typography variant="body2" color="text.secondary">
                To turn it off, type a current code from your authenticator app.
              </Typography>
              {codeField}
              {submit('TURN OFF TWO-STEP SIGN-IN')}
            </Stack>
          )}
        </Stack>
      </Paper>
    </Container>
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
