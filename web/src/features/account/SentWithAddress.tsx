import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { count, subjectLabel } from '../../lib/words';
import { sendProofLink, type MyAddress } from './api';
import { useSecondStep } from '../auth/useSecondStep';

/** A day as people in Lusaka write it: 3 Dec 2026. */
function day(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Africa/Lusaka' });
}


/**
 * SentWithAddress shows the messages and waitlist sign-ups sent to Salaula
 * with the account's e-mail address, once the account proved it holds that
 * address; until then it says why they are not shown and offers to e-mail
 * the link that proves it.
 */
export function SentWithAddress({ address }: { address: MyAddress }) {
  const [sent, setSent] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const step = useSecondStep();
  const send = async () => {
    setBusy(true);
    setError('');
    try {
      setSent(await step.guard(sendProofLink)());
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  if (!address.proven) {
    return (
      <>
        <Typography sx={{ fontWeight: 700 }}>Prove this address to see the messages and waitlist sign-ups sent with it.</Typography>
        <Typography>
          Anyone can type an e-mail address into a form, so what was sent with {address.email} is shown, downloaded and deleted with
          your account only once you open a link we e-mail to it.
        </Typography>
        {sent && <Alert severity="success" role="status">{sent}</Alert>}
        {error && <Alert severity="error">{error}</Alert>}
        <Box>
          <Button variant="outlined" disabled={busy} onClick={send}>
            {busy ? 'SENDING...' : sent ? 'Send another link' : 'Send me a link'}
          </Button>
        </Box>
        {step.prompt}
      </>
    );
  }
  const signups = address.waitlist_signups;
  const messages = address.contact_messages;
  if (signups.length === 0 && messages.length === 0) {
    return <Typography>No messages or waitlist sign-ups were sent with {address.email}.</Typography>;
  }
  return (
    <>
      <Typography>
        Sent with {address.email}: {count(messages.length, 'message', 'messages')} and{' '}
        {count(signups.length, 'waitlist sign-up', 'waitlist sign-ups')}.
      </Typography>
      {signups.length > 0 && (
        <Box component="ul" aria-label="Waitlist sign-ups" sx={{ m: 0, pl: 2.5 }}>
          {signups.map((s) => (
            <li key={s.program}>
              {s.program}: joined {day(s.created_at)}
              {s.unsubscribed_at ? `, unsubscribed ${day(s.unsubscribed_at)}` : ''}
            </li>
          ))}
        </Box>
      )}
      {messages.length > 0 && (
        <Box component="ul" aria-label="Messages" sx={{ m: 0, pl: 2.5 }}>
          {messages.map((m) => (
            <li key={m.created_at + m.subject}>
              {subjectLabel(m.subject)}, sent {day(m.created_at)}: “{m.message}”
            </li>
          ))}
        </Box>
      )}
    </>
  );
}
