import { useNavigate, useSearchParams } from 'react-router';
import { Alert, Button, TextLink } from '../../components/ui';
import { withQueries } from '../../lib/QueryProvider';
import { PageHeader } from '../../components/PageHeader';
import { ACCOUNT_PATH } from '../../config/constants';
import { useAuth } from '../../lib/auth';
import { RequireAuth } from '../auth/RequireAuth';
import { proveMyAddress } from './api';
import { useAction } from './useAction';
import { useSecondStep } from '../auth/useSecondStep';
import { accountKeys } from './queries';

/**
 * ProveEmailPage (/account/prove_email?token_hash=...) is where the link
 * e-mailed from My account lands. Opening it changes nothing (mail systems
 * open links to scan them); the signed-in holder presses "Prove this
 * address", and then My account shows the messages and waitlist sign-ups
 * sent with it.
 */
function ProveEmail() {
  const [params] = useSearchParams();
  const tokenHash = params.get('token_hash') ?? '';
  const navigate = useNavigate();
  const email = useAuth().user?.email ?? '';
  const step = useSecondStep();
  const prove = useAction(async () => {
    await step.guard(proveMyAddress)(tokenHash);
    navigate(ACCOUNT_PATH, { state: { proven: true } });
  }, [accountKeys.address()]);
  return (
    <RequireAuth>
      <PageHeader title="Prove Your E-mail Address" />
      <main className="ui-main ui-main-xs">
        <div className="fk-paper fk-paper-line ui-card">
          <div className="fk-stack">
            {!tokenHash ? (
              <Alert severity="error">
                This link is incomplete. Open the link in the e-mail again, or ask for a new one from My account.
              </Alert>
            ) : (
              <>
                <p className="fk-p">
                  Press the button to prove that {email || 'your e-mail address'} is yours. The messages and waitlist sign-ups sent to
                  Salaula with it will then show in My account, and your data download and account deletion will include them.
                </p>
                {prove.state.kind === 'error' && <Alert severity="error">{prove.state.message}</Alert>}
                <Button variant="solid" size="large" disabled={prove.busy} onClick={() => prove.start()}>
                  {prove.busy ? 'PROVING...' : 'Prove this address'}
                </Button>
                {step.prompt}
              </>
            )}
            <TextLink to={ACCOUNT_PATH}>Back to My account</TextLink>
          </div>
        </div>
      </main>
    </RequireAuth>
  );
}

export default withQueries(ProveEmail);
