import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CodeField } from './CodeField';
import { isSixDigits, verifySecondStep } from './mfa';

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * SecondStepForm is the sign-in code step ('TWO-STEP SIGN-IN'): it asks for
 * the 6-digit code of the account's authenticator app, raises the session to
 * aal2 and then runs onVerified (whose error, if any, it shows). Used by the
 * sign-in page and by the founders' console for a password-only session.
 */
export function SecondStepForm({
  onVerified,
  onOtherAccount,
}: {
  onVerified: () => Promise<void>;
  onOtherAccount: () => Promise<void>;
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
    <Stack component="form" noValidate onSubmit={handleCode} spacing={2.5} aria-label="Two-step sign-in">
      <Box>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
          TWO-STEP SIGN-IN
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          Open your authenticator app and type the 6-digit code it shows for Salaula.
        </Typography>
      </Box>
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
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={loading}
        aria-busy={loading}
        startIcon={loading ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
        fullWidth
      >
        VERIFY
      </Button>
      <Link component="button" type="button" variant="body2" onClick={() => void onOtherAccount()} disabled={loading}>
        Use another account
      </Link>
    </Stack>
  );
}
