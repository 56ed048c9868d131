import { BOT_TRAP_FIELD, FUNCTIONS } from '../../config/constants';
import { invokePublicFunction } from '../../lib/functionError';
import type { ContactValues } from './validation';

/**
 * sendContactMessage invokes contact-form-submit with the trimmed form
 * (spec section 7, call 1). botTrap is the hidden field's value, empty for
 * people. It throws a FunctionCallError carrying the server's message.
 */
export async function sendContactMessage(values: ContactValues, botTrap = ''): Promise<void> {
  await invokePublicFunction(FUNCTIONS.contactFormSubmit, {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    phoneNumber: values.phoneNumber.trim(),
    subject: values.subject,
    message: values.message.trim(),
    [BOT_TRAP_FIELD]: botTrap,
  });
}
