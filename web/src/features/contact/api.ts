import { BOT_TRAP_FIELD } from '../../config/constants';
import type { ContactValues } from './validation';

/**
 * contactBody is the body of contact-form-submit (spec section 7, call 1):
 * the trimmed form; botTrap is the hidden field's value, empty for people.
 */
export function contactBody(values: ContactValues, botTrap = ''): Record<string, unknown> {
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    phoneNumber: values.phoneNumber.trim(),
    subject: values.subject,
    message: values.message.trim(),
    [BOT_TRAP_FIELD]: botTrap,
  };
}

/** contactValues is the form a queued body was made from. */
export function contactValues(body: Record<string, unknown>): ContactValues {
  const s = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : '');
  return { firstName: s('firstName'), lastName: s('lastName'), email: s('email'), phoneNumber: s('phoneNumber'), subject: s('subject'), message: s('message') };
}

