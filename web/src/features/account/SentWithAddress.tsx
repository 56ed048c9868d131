import { useMutation } from '@tanstack/react-query';
import { Alert, Button } from '../../components/ui';
import { messageOf } from '../../lib/functionError';
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
  const step = useSecondStep();
  const proof = useMutation({ mutationFn: step.guard(sendProofLink) });
  const sent = proof.data ?? '';
  const error = proof.isError ? messageOf(proof.error) : '';
  const busy = proof.isPending;
  const send = () => proof.mutate();

  if (!address.proven) {
    return (
      <>
        <p className="fk-p fk-strong">Prove this address to see the messages and waitlist sign-ups sent with it.</p>
        <p className="fk-p">
          Anyone can type an e-mail address into a form, so what was sent with {address.email} is shown, downloaded and deleted with
          your account only once you open a link we e-mail to it.
        </p>
        {sent && <Alert severity="success" role="status">{sent}</Alert>}
        {error && <Alert severity="error">{error}</Alert>}
        <div>
          <Button variant="outline" disabled={busy} onClick={send}>
            {busy ? 'SENDING...' : sent ? 'Send another link' : 'Send me a link'}
          </Button>
        </div>
        {step.prompt}
      </>
    );
  }
  const signups = address.waitlist_signups;
  const messages = address.contact_messages;
  if (signups.length === 0 && messages.length === 0) {
    return <p className="fk-p">No messages or waitlist sign-ups were sent with {address.email}.</p>;
  }
  return (
    <>
      <p className="fk-p">
        Sent with {address.email}: {count(messages.length, 'message', 'messages')} and{' '}
        {count(signups.length, 'waitlist sign-up', 'waitlist sign-ups')}.
      </p>
      {signups.length > 0 && (
        <ul aria-label="Waitlist sign-ups" className="sent-list">
          {signups.map((s) => (
            <li key={s.program}>
              {s.program}: joined {day(s.created_at)}
              {s.unsubscribed_at ? `, unsubscribed ${day(s.unsubscribed_at)}` : ''}
            </li>
          ))}
        </ul>
      )}
      {messages.length > 0 && (
        <ul aria-label="Messages" className="sent-list">
          {messages.map((m) => (
            <li key={m.created_at + m.subject}>
              {subjectLabel(m.subject)}, sent {day(m.created_at)}: “{m.message}”
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
