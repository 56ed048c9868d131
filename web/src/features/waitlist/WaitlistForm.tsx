import { useEffect, useId, useState, type FormEvent } from 'react';
import { BotTrap, botTrapValue } from '../../components/BotTrap';
import { Alert, Button, TextField } from '../../components/ui';
import { FORM_LIMITS, FUNCTIONS } from '../../config/constants';
import { isBlank } from '../../lib/validation';
import { useSendWhenOnline } from '../../lib/offline';
import { WaitingForConnection } from '../../components/ConnectionNotices';
import { waitlistBody } from './api';
import { confirmedPlace, currentRef } from './referral';
import { ShareYourPlace } from './ShareYourPlace';
import { validateWaitlist } from './validation';
import { useLeadToProblem } from '../../lib/leadToProblem';
import '../../styles/form-pages.css';

/** Props of the waitlist e-mail form used on the Impact and Wardrobe Clearance pages. */
export interface WaitlistFormProps {
  /** 'Upcycling Initiative' or 'Wardrobe Clearance Program'. */
  programName: string;
  /** Shown when the call fails: the two pages use different words. */
  errorMessage: string;
  /** Text under "You're on the list!". */
  successDetail: string;
}

type Status = 'idle' | 'success' | 'error';

/** The line under the success words: the place and link come by e-mail, after the confirm link. */
export const CHECK_EMAIL = 'Check your e-mail and press the link in it to confirm your address: then you get your place in line and your personal link.';

/**
 * The waitlist e-mail form (spec section 4): idle, then submitting
 * ('Joining...'), then success ("You're on the list!", e-mail cleared) or the
 * page's error message. A blank e-mail is silently ignored. Without a
 * connection the e-mail is kept and sent when the connection comes back.
 * Opened from the confirm link's button, it shows the person's place and
 * personal link.
 */
export function WaitlistForm({ programName, errorMessage, successDetail }: WaitlistFormProps) {
  const leadRef = useLeadToProblem();
  const [email, setEmail] = useState('');
  const [status, setStatus] = useState<Status>('idle');
  const [emailError, setEmailError] = useState<string>();
  const id = useId();
  const [place] = useState(() => confirmedPlace());
  useEffect(() => void currentRef(), []); // remember the ?ref= the page was opened with

  const sender = useSendWhenOnline(
    FUNCTIONS.waitlistSignup,
    (body) => body.programName === programName,
    (body) => setEmail(typeof body.email === 'string' ? body.email : ''),
    () => {
      setEmail('');
      setStatus('success');
    },
    (err) => {
      console.error(`Could not join the ${programName} waitlist:`, err);
      setStatus('error');
    },
  );

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (sender.sending || sender.waiting) return;
    setStatus('idle');
    if (isBlank(email)) return;
    const trimmed = email.trim();
    const errors = validateWaitlist({ email: trimmed, programName });
    if (errors.email) {
      setEmailError(errors.email);
      return;
    }
    sender.submit(waitlistBody({ email: trimmed, programName }, botTrapValue(e.currentTarget)));
  }

  const submitting = sender.sending;
  const locked = sender.sending || sender.waiting;
  return (
    <form ref={leadRef} onSubmit={submit} aria-label={`Join the ${programName} waitlist`} className="wl-form">
      <div className="wl-row">
        <TextField
          id={`${id}-email`}
          type="email"
          name="email"
          label="Email address"
          placeholder="you@example.com"
          autoComplete="email"
          required
          fullWidth
          size="small"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setEmailError(undefined);
          }}
          error={Boolean(emailError)}
          helperText={emailError}
          disabled={locked}
          inputProps={{ maxLength: FORM_LIMITS.email }}
        />
        <Button type="submit" variant="solid" disabled={locked} busy={submitting}>
          {submitting ? 'Joining...' : 'Join the Waitlist'}
        </Button>
      </div>
      <BotTrap />
      <div aria-live="polite" className="wl-answer">
        {sender.waiting && <WaitingForConnection onCancel={sender.cancel} />}
        {status === 'success' && (
          <Alert severity="success" role="status" title="You're on the list!">
            {successDetail} {CHECK_EMAIL}
          </Alert>
        )}
        {status !== 'success' && place.position && (
          <Alert severity="success" role="status" title="Your address is confirmed">
            {successDetail}
          </Alert>
        )}
        {status !== 'success' && <ShareYourPlace programName={programName} place={place} />}
        {status === 'error' && (
          <Alert severity="error" role="alert">
            {errorMessage}
          </Alert>
        )}
      </div>
    </form>
  );
}
