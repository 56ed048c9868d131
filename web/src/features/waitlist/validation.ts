import { PROGRAMS } from '../../config/constants';
import type { FieldErrors } from '../../lib/validation';
import { emailError } from '../contact/validation';

/** A waitlist sign-up as sent to waitlist-signup. */
export interface WaitlistValues {
  email: string;
  programName: string;
}

/** validateWaitlist checks the e-mail (required, spec shape, length) and the program. */
export function validateWaitlist(v: WaitlistValues): FieldErrors<keyof WaitlistValues> {
  const errors: FieldErrors<keyof WaitlistValues> = {};
  const email = emailError(v.email);
  if (email) errors.email = email;
  if (!(Object.values(PROGRAMS) as string[]).includes(v.programName)) {
    errors.programName = `Please choose a waitlist: ${PROGRAMS.upcycling} or ${PROGRAMS.wardrobeClearance}`;
  }
  return errors;
}
