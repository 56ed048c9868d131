import { ACCOUNT_PATH, AUTH_ROUTES } from '../config/constants';
import { useOptionalAuth } from '../lib/auth';

/**
 * useSignedIn reports whether someone is signed in. Outside an AuthProvider
 * (headers rendered alone in tests) it answers false: a visitor.
 */
export function useSignedIn(): boolean {
  return useOptionalAuth()?.isAuthenticated ?? false;
}

/** useAccountLink is where the account icon leads: /account when signed in, else sign-in (not sign-up). */
export function useAccountLink(): string {
  return useSignedIn() ? ACCOUNT_PATH : AUTH_ROUTES.signIn;
}
