import { useState, type ChangeEvent, type FormEvent } from 'react';
import { BotTrap, botTrapValue } from '../../components/BotTrap';
import { Alert, Button, RadioGroup, TextField, type TextFieldProps } from '../../components/ui';
import { CONTACT_SUBJECTS, FORM_LIMITS, FUNCTIONS } from '../../config/constants';
import type { FieldErrors } from '../../lib/validation';
import { FunctionCallError } from '../../lib/functionError';
import { useSendWhenOnline } from '../../lib/offline';
import { WaitingForConnection } from '../../components/ConnectionNotices';
import { contactBody, contactValues } from './api';
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
    FUNCTIONS.contactFormSubmit,
    () => true,
    (body) => setValues(contactValues(body)),
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
    sender.submit(contactBody(values, botTrapValue(e.currentTarget)));
  }

  const text = (field: ContactField, label: string, extra: Partial<TextFieldProps> = {}) => (
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
      {...extra}
    />
  );

  return (
    <form ref={leadRef} noValidate onSubmit={submit} aria-label="Contact form" className="contact-form">
      <div className="contact-names">
        {text('firstName', 'First Name', { autoComplete: 'given-name', inputProps: { maxLength: FORM_LIMITS.name } })}
        {text('lastName', 'Last Name', { autoComplete: 'family-name', inputProps: { maxLength: FORM_LIMITS.name } })}
        {text('email', 'Email', { type: 'email', autoComplete: 'email', inputProps: { maxLength: FORM_LIMITS.email } })}
        {text('phoneNumber', 'Phone Number', { type: 'tel', autoComplete: 'tel', inputProps: { maxLength: FORM_LIMITS.phone } })}
      </div>
      <RadioGroup
        label="Select Subject"
        labelId="contact-subject-label"
        name="subject"
        row
        options={CONTACT_SUBJECTS}
        value={values.subject}
        onChange={(e) => {
          const value = e.target.value;
          setValues((v) => ({ ...v, subject: value }));
          setErrors((errs) => ({ ...errs, subject: undefined }));
        }}
        disabled={locked}
        error={Boolean(errors.subject)}
        helperText={errors.subject}
      />
      {text('message', 'Write Your Message Here', { multiline: true, rows: 5 })}
      <BotTrap />
      {sender.waiting && <WaitingForConnection onCancel={sender.cancel} />}
      {status && (
        <Alert severity={status.kind} variant="filled" role={status.kind === 'success' ? 'status' : 'alert'}>
          {status.text}
        </Alert>
      )}
      <div className="contact-send">
        <Button type="submit" variant="solid" size="large" disabled={locked}>
          {sending ? 'Sending...' : 'Send Message'}
        </Button>
      </div>
    </form>
  );
}
