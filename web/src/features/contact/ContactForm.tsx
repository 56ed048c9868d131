import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { BotTrap, botTrapValue } from '../../components/BotTrap';
import { CONTACT_SUBJECTS, FORM_LIMITS } from '../../config/constants';
import type { FieldErrors } from '../../lib/validation';
import { FunctionCallError } from '../../lib/functionError';
import { WaitingForConnection, useSendWhenOnline } from '../../lib/offline';
import { sendContactMessage } from './api';
import { validateContact, type ContactField, type ContactValues } from './validation';
import { useLeadToProblem } from '../../lib/leadToProblem';

const EMPTY: ContactValues = { firstName: '', lastName: '', email: '', phoneNumber: '', subject: '', message: '' };

type Status = { kind: 'success' | 'error'; text: string } | null;

/**
 * The Contact Us message form with the spec's states (section 4) and messages
 * (sections 5 and 8). Without a connection the message is kept (fields and
 * all) and sent when the connection comes back.
 */
export function ContactForm() {
  const leadRef = useLeadToProblem();
  const [values, setValues] = useState<ContactValues>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<ContactField>>({});
  const [status, setStatus] = useState<Status>(null);

  const change = (field: ContactField) => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const value = e.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((errs) => (errs[field] ? { ...errs, [field]: undefined } : errs));
  };

  const sender = useSendWhenOnline(
    ({ form, trap }: { form: ContactValues; trap: string }) => sendContactMessage(form, trap),
    () => {
      setValues(EMPTY);
      setErrors({});
      setStatus({ kind: 'success', text: "Message sent successfully! We'll be in touch soon." });
    },
    (err) => {
      console.error('Error sending contact message:', err);
      // The spec's template adds its own full stop after the server's message.
      const message = (err instanceof Error ? err.message : String(err)).replace(/[.\s]+$/, '');
      if (err instanceof FunctionCallError) setErrors(err.fields as FieldErrors<ContactField>);
      setStatus({ kind: 'error', text: `Error sending message: ${message}. Please try again later.` });
    },
  );
  const sending = sender.sending;
  const locked = sender.sending || sender.waiting;

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (locked) return;
    const found = validateContact(values);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      return;
    }
    setStatus(null);
    sender.submit({ form: values, trap: botTrapValue(e.currentTarget) });
  }

  const text = (field: ContactField, label: string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      id={`contact-${field}`}
      name={field}
      label={label}
      value={values[field]}
      onChange={change(field)}
      error={Boolean(errors[field])}
      helperText={errors[field]}
      disabled={locked}
      fullWidth
      variant="standard"
      {...extra}
    />
  );

  return (
    <Box component="form" ref={leadRef} noValidate onSubmit={submit} aria-label="Contact form" sx={{ position: 'relative', display: 'grid', gap: 3 }}>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        {text('firstName', 'First Name', { autoComplete: 'given-name', slotProps: { htmlInput: { maxLength: FORM_LIMITS.name } } })}
        {text('lastName', 'Last Name', { autoComplete: 'family-name', slotProps: { htmlInput: { maxLength: FORM_LIMITS.name } } })}
        {text('email', 'Email', { type: 'email', autoComplete: 'email', slotProps: { htmlInput: { maxLength: FORM_LIMITS.email } } })}
        {text('phoneNumber', 'Phone Number', { type: 'tel', autoComplete: 'tel', slotProps: { htmlInput: { maxLength: FORM_LIMITS.phone } } })}
      </Box>
      <FormControl error={Boolean(errors.subject)} disabled={locked}>
        <FormLabel id="contact-subject-label" sx={{ fontWeight: 700 }}>
          Select Subject
        </FormLabel>
        <RadioGroup
          row
          name="subject"
          aria-labelledby="contact-subject-label"
          value={values.subject}
          onChange={(e) => {
            const value = e.target.value;
            setValues((v) => ({ ...v, subject: value }));
            setErrors((errs) => ({ ...errs, subject: undefined }));
          }}
        >
          {CONTACT_SUBJECTS.map((s) => (
            <FormControlLabel key={s.value} value={s.value} control={<Radio size="small" />} label={s.label} />
          ))}
        </RadioGroup>
        {errors.subject && <FormHelperText>{errors.subject}</FormHelperText>}
      </FormControl>
      {text('message', 'Write Your Message Here', { multiline: true, rows: 5 })}
      <BotTrap />
      {sender.waiting && <WaitingForConnection onCancel={sender.cancel} />}
      {status && (
        <Alert severity={status.kind} variant="filled" role={status.kind === 'success' ? 'status' : 'alert'}>
          {status.text}
        </Alert>
      )}
      <Box sx={{ display: 'flex', justifyContent: { xs: 'stretch', sm: 'flex-end' } }}>
        <Button type="submit" variant="contained" size="large" disabled={locked} sx={{ minWidth: 200, width: { xs: '100%', sm: 'auto' }, textTransform: 'none', fontWeight: 700 }}>
          {sending ? 'Sending...' : 'Send Message'}
        </Button>
      </Box>
    </Box>
  );
}
