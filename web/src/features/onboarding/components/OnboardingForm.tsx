import { useCallback, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button, TextField } from '../../../components/ui';
import { PageHeader } from '../../../components/PageHeader';
import { RequireAuth } from '../../auth/RequireAuth';
import { ErrorBanner, InspirationSelect, PhoneField, VoiceInputButton } from './FormPieces';
import type { useFields } from '../useFields';
import type { BuyerErrorKey, BuyerFields } from '../validation';
import { SELLER_ERRORS, SubmitError } from '../flows';
import { NeedsConnection } from '../../../components/ConnectionNotices';
import { useLeadToProblem } from '../../../lib/leadToProblem';
import { STYLE_LABEL } from '../../../config/constants';

/** What one onboarding submit does: check the fields, send, then move on. */
export interface SubmitSteps {
  /** Returns the field errors; sending happens only when there are none. */
  validate: () => Record<string, string | undefined>;
  /** Waits for the uploads still running and calls the server; throws SubmitError. */
  send: () => Promise<void>;
  /** Runs after a successful send (alert, navigation). */
  done: () => void;
}

/**
 * useOnboardingSubmit runs one submit at a time (a repeat while one runs is
 * ignored), clears the banner first, validates, sends, and on failure shows
 * the message in the banner and the server's field messages under fields.
 */
export function useOnboardingSubmit(setErrors: (errors: Record<string, string | undefined>) => void, steps: SubmitSteps) {
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const [banner, setBanner] = useState('');
  const onSubmit = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setBanner('');
    try {
      const found = steps.validate();
      setErrors(found);
      if (Object.values(found).some(Boolean)) return;
      await steps.send();
      steps.done();
    } catch (err) {
      const e = err instanceof SubmitError ? err : new SubmitError(SELLER_ERRORS.unexpected);
      setErrors(e.fields);
      setBanner(e.message);
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, [setErrors, steps]);
  return { busy, banner, onSubmit };
}

/** The banner text for a set of field errors: each message on its own line. */
export function FieldErrorList({ errors }: { errors: Record<string, string | undefined> }) {
  const messages = Array.from(new Set(Object.values(errors).filter(Boolean)));
  if (messages.length === 0) return null;
  return (
    <ul>
      {messages.map((m) => (
        <li key={m}>{m}</li>
      ))}
    </ul>
  );
}

/** FormBanner: the submit error (after prefix), or else the list of field errors. */
export function FormBanner({
  message,
  prefix = '',
  errors,
}: {
  message: string;
  prefix?: string;
  errors: Record<string, string | undefined>;
}) {
  if (message) return <ErrorBanner>{prefix + message}</ErrorBanner>;
  if (!Object.values(errors).some(Boolean)) return null;
  return (
    <ErrorBanner>
      <FieldErrorList errors={errors} />
    </ErrorBanner>
  );
}

/**
 * OnboardingPage: the frame of every onboarding form: signed-in users
 * only, the shared header, a narrow mobile-first column and the form.
 */
export function OnboardingPage({
  title,
  onSubmit,
  children,
}: {
  title: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const leadRef = useLeadToProblem();
  return (
    <RequireAuth>
      <PageHeader title={title} />
      <main className="ob-main">
        <NeedsConnection what="Signing up" />
        <form
          ref={leadRef}
          noValidate
          aria-label={title}
          className="ob-form"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            onSubmit();
          }}
        >
          {children}
        </form>
      </main>
    </RequireAuth>
  );
}

/**
 * SubmitButton: full width on phones, shows busyLabel while busy. When the
 * submit has to wait for uploads (uploading of them still running), the
 * button and a status line under it say so.
 */
export function SubmitButton({ busy, label, busyLabel, uploading = 0 }: { busy: boolean; label: string; busyLabel: string; uploading?: number }) {
  const waiting = busy && uploading > 0;
  return (
    <div className="ob-submit">
      <Button type="submit" variant="solid" size="large" disabled={busy} fullWidth>
        {waiting ? 'WAITING FOR UPLOADS...' : busy ? busyLabel : label}
      </Button>
      <p role="status" className="ob-wait">
        {waiting && `The form is sent as soon as ${uploading === 1 ? 'the last upload finishes' : `${uploading} uploads finish`}.`}
      </p>
    </div>
  );
}

type BuyerForm = ReturnType<typeof useFields<BuyerFields, BuyerErrorKey>>;

/**
 * BuyerDetailsFields: the buyer's text details in the spec's order (full
 * name, height, waist size, location, age, the Inspiration dropdown, phone
 * with +260, the description with the disabled voice input).
 */
export function BuyerDetailsFields({
  form,
  busy,
  voiceLabel,
}: {
  form: Pick<BuyerForm, 'text' | 'values' | 'set'>;
  busy: boolean;
  voiceLabel?: string;
}) {
  const { text, values, set } = form;
  return (
    <>
      <TextField {...text('full_name', 'Full name', busy)} autoComplete="name" />
      <div className="ob-pair">
        <TextField {...text('height', 'Height', busy)} placeholder="e.g. 170 cm" />
        <TextField {...text('waist_size', 'Waist size', busy)} placeholder="e.g. 32 in" />
      </div>
      <TextField {...text('location', 'Location', busy)} placeholder="e.g. Kabulonga, Lusaka" autoComplete="address-level2" />
      <TextField {...text('age', 'Age', busy)} inputProps={{ inputMode: 'numeric', maxLength: 3 }} />
      <InspirationSelect value={values.inspiration} onChange={(v) => set('inspiration', v)} disabled={busy} />
      <PhoneField {...text('phone_number', 'Phone number', busy)} />
      <TextField
        {...text('user_description', STYLE_LABEL, busy)}
        multiline
        minRows={3}
        placeholder="Colours, fits, brands, occasions..."
      />
      <VoiceInputButton label={voiceLabel} />
    </>
  );
}

/** Empty buyer fields. */
export const EMPTY_BUYER: BuyerFields = {
  full_name: '',
  location: '',
  age: '',
  phone_number: '',
  gender: '',
  parental_consent: false,
  height: '',
  waist_size: '',
  user_description: '',
  clothing_aesthetics: [],
  inspiration: '',
  wants_clearance_program: false,
  terms: false,
};

/** toggled returns the list with title added or removed. */
export function toggled(list: readonly string[], title: string): string[] {
  return list.includes(title) ? list.filter((t) => t !== title) : [...list, title];
}
