import { BOT_TRAP_FIELD } from '../../config/constants';
import type { WaitlistValues } from './validation';
import { currentRef } from './referral';

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
 * waitlistBody is the body of waitlist-signup (spec section 7, call 2): the
 * trimmed e-mail, the program and where the sign-up came from.
 */
export function waitlistBody(values: WaitlistValues, botTrap = ''): Record<string, unknown> {
  return {
    email: values.email.trim(),
    programName: values.programName,
    ...signupSource(),
    ref: currentRef(),
    [BOT_TRAP_FIELD]: botTrap,
  };
}

