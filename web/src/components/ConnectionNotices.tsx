/**
 * What a form shows about the connection: lib/offline follows the
 * connection and keeps the forms that wait for it; these are its words on
 * screen, in the kit's alerts.
 */
import { Alert } from './ui/Alert';
import { Button } from './ui/Button';
import { WAITING_FOR_CONNECTION_MESSAGE, useOnline } from '../lib/offline';

/** NeedsConnection says, while offline, that what the page does needs a connection (sign-in, onboarding). */
export function NeedsConnection({ what }: { what: string }) {
  const online = useOnline();
  if (online) return null;
  return (
    <Alert severity="warning" role="status" className="mb2">
      No internet connection. {what} needs a connection: you can fill in the form, then send it once you are back online.
    </Alert>
  );
}

/** WaitingForConnection is what a form shows while its sending waits for the connection; "Don't send" cancels. */
export function WaitingForConnection({ onCancel }: { onCancel: () => void }) {
  return (
    <Alert
      severity="info"
      role="status"
      action={
        <Button color="inherit" size="small" onClick={onCancel}>
          Don't send
        </Button>
      }
    >
      {WAITING_FOR_CONNECTION_MESSAGE}
    </Alert>
  );
}
