import { BOT_TRAP_FIELD, FUNCTIONS } from '../../config/constants';
import { invokePublicFunction } from '../../lib/functionError';
import type { WaitlistValues } from './validation';
import { currentRef, placeOf, type PlaceInLine } from './referral';

/** The UTM parameters a sign-up carries from the page's address. */
const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;

/** signupSource is where a sign-up comes from: the page path, referrer and UTM parameters of the current page. */
export function signupSource(location: Pick<Location, 'pathname' | 'search'> = window.location, referrer = document.referrer) {
  const params = new URLSearchParams(location.search);
  const source: Record<string, string> = { pagePath: location.pathname, referrer };
  for (const key of UTM_KEYS) source[key] = params.get(key) ?? '';
  return source;
}

/**
 * joinWaitlist invokes waitlist-signup (spec section 7, call 2) with the
 * trimmed e-mail, the program, where the sign-up came from and the
 * personal-link code the visitor arrived with, and returns the place in line
 * and personal link it answers. It throws a FunctionCallError on failure.
 */
export async function joinWaitlist(values: WaitlistValues, botTrap = ''): Promise<PlaceInLine> {
  const data = await invokePublicFunction(FUNCTIONS.waitlistSignup, {
    email: values.email.trim(),
    programName: values.programName,
    ...signupSource(),
    ref: currentRef(),
    [BOT_TRAP_FIELD]: botTrap,
  });
  return placeOf(data);
}
