import { useCallback, useRef, useState, type FormEvent, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import TextField from '@mui/material/TextField';
import { PageHeader } from '../../../components/PageHeader';
import { RequireAuth } from '../../auth/RequireAuth';
import { InspirationSelect, PhoneField, VoiceInputButton } from './FormPieces';
import type { useFields } from '../useFields';
import type { BuyerErrorKey, BuyerFields } from '../validation';

/**
 * useSubmitting runs one submit at a time: a submit while one is running
 * is ignored (spec section 4).
 */
export function useSubmitting() {
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (work: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await work();
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  return { busy, run };
}

/** The banner text for a set of field errors: each message on its own line. */
export function FieldErrorList({ errors }: { errors: Record<string, string | undefined> }) {
  const messages = Array.from(new Set(Object.values(errors).filter(Boolean)));
  if (messages.length === 0) return null;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {messages.map((m) => (
        <li key={m}>{m}</li>
      ))}
    </Box>
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
  return (
    <RequireAuth>
      <PageHeader title={title} />
      <Container component="main" maxWidth="md" sx={{ py: 2, px: 2 }}>
        <Box
          component="form"
          noValidate
          aria-label={title}
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            onSubmit();
          }}
          sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
        >
          {children}
        </Box>
      </Container>
    </RequireAuth>
  );
}

/** SubmitButton: full width on phones, shows busyLabel while busy. */
export function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <Button type="submit" variant="contained" size="large" disabled={busy} sx={{ mt: 1, py: 1.5 }} fullWidth>
      {busy ? busyLabel : label}
    </Button>
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
      <Box sx={{ display: 'flex', gap: 2 }}>
        <TextField {...text('height', 'Height', busy)} placeholder="e.g. 170 cm" />
        <TextField {...text('waist_size', 'Waist size', busy)} placeholder="e.g. 32 in" />
      </Box>
      <TextField {...text('location', 'Location', busy)} placeholder="e.g. Kabulonga, Lusaka" autoComplete="address-level2" />
      <TextField {...text('age', 'Age', busy)} slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 3 } }} />
      <InspirationSelect value={values.inspiration} onChange={(v) => set('inspiration', v)} disabled={busy} />
      <PhoneField {...text('phone_number', 'Phone number', busy)} />
      <TextField
        {...text('user_description', 'Describe the clothes you like', busy)}
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
