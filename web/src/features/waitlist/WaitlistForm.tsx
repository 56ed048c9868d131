import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { BotTrap, botTrapValue } from '../../components/BotTrap';
import { FORM_LIMITS } from '../../config/constants';
import { isBlank } from '../../lib/validation';
import { joinWaitlist } from './api';
import { validateWaitlist } from './validation';

/** Props of the waitlist e-mail form used on the Impact and Wardrobe Clearance pages. */
export interface WaitlistFormProps {
  /** 'Upcycling Initiative' or 'Wardrobe Clearance Program'. */
  programName: string;
  /** Shown when the call fails: the two pages use different words. */
  errorMessage: string;
  /** Text under "You're on the list!". */
  successDetail: string;
}

type Status = 'idle' | 'submitting' | 'success' | 'error';

/**
 * The waitlist e-mail form (spec section 4): idle, then submitting
 * ('Joining...'), then success ("You're on the list!", e-mail cleared) or the
 * page's error message. A blank e-mail is silently ignored.
 */
export function WaitlistForm({ programName, errorMessage, successDetail }: WaitlistFormProps) {
  const [email, setEmail] = useState('');
  const [status, setStatus] = useState<Status>('idle');
  const [emailError, setEmailError] = useState<string>();
  const id = useId();

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (status === 'submitting') return;
    setStatus('idle');
    if (isBlank(email)) return;
    const trimmed = email.trim();
    const errors = validateWaitlist({ email: trimmed, programName });
    if (errors.email) {
      setEmailError(errors.email);
      return;
    }
    const trap = botTrapValue(e.currentTarget);
    setStatus('submitting');
    try {
      await joinWaitlist({ email: trimmed, programName }, trap);
      setEmail('');
      setStatus('success');
    } catch (err) {
      console.error(`Could not join the ${programName} waitlist:`, err);
      setStatus('error');
    }
  }

  const submitting = status === 'submitting';
  return (
    <Box component="form" onSubmit={submit} aria-label={`Join the ${programName} waitlist`} sx={{ position: 'relative', width: '100%' }}>
      <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 1.5, alignItems: { sm: 'flex-start' } }}>
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
          disabled={submitting}
          slotProps={{ htmlInput: { maxLength: FORM_LIMITS.email } }}
        />
        <Button
          type="submit"
          variant="contained"
          disabled={submitting}
          startIcon={submitting ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
          sx={{ whiteSpace: 'nowrap', minWidth: 160, py: 1, textTransform: 'none', fontWeight: 700 }}
        >
          {submitting ? 'Joining...' : 'Join the Waitlist'}
        </Button>
      </Box>
      <BotTrap />
      <Box aria-live="polite" sx={{ mt: status === 'success' || status === 'error' ? 2 : 0 }}>
        {status === 'success' && (
          <Alert severity="success" role="status">
            <AlertTitle>You're on the list!</AlertTitle>
            {successDetail}
          </Alert>
        )}
        {status === 'error' && (
          <Alert severity="error" role="alert">
            {errorMessage}
          </Alert>
        )}
      </Box>
    </Box>
  );
}
