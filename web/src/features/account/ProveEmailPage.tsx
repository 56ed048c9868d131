import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { PageHeader } from '../../components/PageHeader';
import { ACCOUNT_PATH } from '../../config/constants';
import { useAuth } from '../auth/AuthProvider';
import { RequireAuth } from '../auth/RequireAuth';
import { proveMyAddress } from './api';
import { useAction } from './useAction';
import { useSecondStep } from '../auth/useSecondStep';

/**
 * ProveEmailPage (/account/prove_email?token_hash=...) is where the link
 * e-mailed from My account lands. Opening it changes nothing (mail systems
 * open links to scan them); the signed-in holder presses "Prove this
 * address", and then My account shows the messages and waitlist sign-ups
 * sent with it.
 */
export default function ProveEmailPage() {
  const [params] = useSearchParams();
  const tokenHash = params.get('token_hash') ?? '';
  const navigate = useNavigate();
  const email = useAuth().user?.email ?? '';
  const step = useSecondStep();
  const prove = useAction(async () => {
    await step.guard(proveMyAddress)(tokenHash);
    navigate(ACCOUNT_PATH, { state: { proven: true } });
  });
  return (
    <RequireAuth>
      <PageHeader title="Prove Your E-mail Address" />
      <Container component="main" maxWidth="xs" sx={{ py: { xs: 3, sm: 6 }, px: 2 }}>
        <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
          <Stack spacing={2}>
            {!tokenHash ? (
              <Alert severity="error">
                This link is incomplete. Open the link in the e-mail again, or ask for a new one from My account.
              </Alert>
            ) : (
              <>
                <Typography>
                  Press the button to prove that {email || 'your e-mail address'} is yours. The messages and waitlist sign-ups sent to
                  Salaula with it will then show in My account, and your data download and account deletion will include them.
                </Typography>
                {prove.state.kind === 'error' && <Alert severity="error">{prove.state.message}</Alert>}
                <Button variant="contained" size="large" disabled={prove.busy} onClick={() => prove.start()}>
                  {prove.busy ? 'PROVING...' : 'Prove this address'}
                </Button>
                {step.prompt}
              </>
            )}
            <Link component={RouterLink} to={ACCOUNT_PATH}>Back to My account</Link>
          </Stack>
        </Paper>
      </Container>
    </RequireAuth>
  );
}
