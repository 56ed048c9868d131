import { CONTACT_MESSAGE_MIN_LENGTH, CONTACT_SUBJECTS, FORM_LIMITS } from '../../config/constants';
import { PHONE_FORMAT_MESSAGE, isBlank, isEmail, zambianPhone, type FieldErrors } from '../../lib/validation';

/** The Contact Us form's values, as sent to contact-form-submit. */
export interface ContactValues {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  subject: string;
  message: string;
}

/** A field of the contact form. */
export type ContactField = keyof ContactValues;

/** length counts characters (code points), as the server does. */
function length(value: string): number {
  return [...value.trim()].length;
}

/** emailError is the spec's e-mail rule plus the length bound; undefined when valid. */
export function emailError(email: string): string | undefined {
  if (isBlank(email)) return 'Email is required';
  if (length(email) > FORM_LIMITS.email) return `Email must be at most ${FORM_LIMITS.email} characters`;
  if (!isEmail(email)) return 'Please enter a valid email';
  return undefined;
}

/** validateContact applies spec section 5's contact rules, and the phone rule of every form (optional here); an empty result means valid. */
export function validateContact(v: ContactValues): FieldErrors<ContactField> {
  const errors: FieldErrors<ContactField> = {};
  if (isBlank(v.firstName)) errors.firstName = 'First name is required';
  else if (length(v.firstName) > FORM_LIMITS.name) errors.firstName = `First name must be at most ${FORM_LIMITS.name} characters`;
  if (isBlank(v.lastName)) errors.lastName = 'Last name is required';
  else if (length(v.lastName) > FORM_LIMITS.name) errors.lastName = `Last name must be at most ${FORM_LIMITS.name} characters`;
  const email = emailError(v.email);
  if (email) errors.email = email;
  if (length(v.phoneNumber) > FORM_LIMITS.phone) errors.phoneNumber = `Phone number must be at most ${FORM_LIMITS.phone} characters`;
  else if (!isBlank(v.phoneNumber) && zambianPhone(v.phoneNumber) === null) errors.phoneNumber = PHONE_FORMAT_MESSAGE;
  if (isBlank(v.subject)) errors.subject = 'Please select a subject';
  else if (!CONTACT_SUBJECTS.some((s) => s.value === v.subject)) errors.subject = 'Please select one of the listed subjects';
  const n = length(v.message);
  if (n === 0) errors.message = 'Message is required';
  else if (n < CONTACT_MESSAGE_MIN_LENGTH) errors.message = `Message should be at least ${CONTACT_MESSAGE_MIN_LENGTH} characters`;
  else if (n > FORM_LIMITS.message) errors.message = `Message must be at most ${FORM_LIMITS.message} characters`;
  return errors;
}
