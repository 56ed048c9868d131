import { createContext, useContext } from 'react';
import type { User } from '@supabase/supabase-js';

/**
 * Who is signed in, as the app sees it: the context that
 * features/auth/AuthProvider fills, read here so the shared components
 * (the menu, the account link) need not reach up into features/.
 */
export interface AuthState {
  /** True when a user exists. */
  isAuthenticated: boolean;
  user: User | null;
  /** True until the stored session has been read. */
  loading: boolean;
  /** Only logs: the state follows the backend's auth events. */
  login: () => void;
  /** Signs the user out. */
  logout: () => Promise<void>;
}

export const AuthContext = createContext<AuthState | undefined>(undefined);

/** useAuth returns the auth state; it throws outside an AuthProvider. */
export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used within an AuthProvider');
  return ctx;
}

/** useOptionalAuth is the auth state, or undefined outside an AuthProvider (a header rendered alone). */
export function useOptionalAuth(): AuthState | undefined {
  return useContext(AuthContext);
}
