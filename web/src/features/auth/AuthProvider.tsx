import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { SupabaseClient, User } from '@supabase/supabase-js';
import { getSupabase, hasSupabaseClient, isSessionStorageKey, mayHaveSession, onSupabaseClient } from '../../lib/supabase';
import { signOut } from './api';
import { PageSkeleton } from '../../components/PageSkeleton';

/** What the app knows about who is signed in (spec sections 3 and 4). */
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

const AuthContext = createContext<AuthState | undefined>(undefined);

/**
 * AuthProvider reads the existing session, then follows every auth event of
 * supabase-js (signed in, signed out, token refreshed, password recovery,
 * user updated, MFA challenge verified, initial session). Its children render
 * only after the first read ends; until then the page skeleton shows.
 *
 * supabase-js is downloaded only when needed: at once when this browser may
 * hold a session (one stored by supabase-js, or one arriving in the address),
 * else the visitor is signed out from the start and the provider starts
 * following the auth events as soon as any code loads the client (a sign-in
 * form, a function call) or another tab stores a session.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null>(null);
  const [loading, setLoading] = useState(() => hasSupabaseClient() || mayHaveSession());

  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    let following = false;
    const follow = async (supabase: SupabaseClient) => {
      if (following || cancelled) return;
      following = true;
      const { data } = await supabase.auth.getSession();
      if (cancelled) return;
      setUser(data.session?.user ?? null);
      setLoading(false);
      const { data: sub } = supabase.auth.onAuthStateChange((_event, session) => {
        setUser(session?.user ?? null);
      });
      unsubscribe = () => sub.subscription.unsubscribe();
    };
    const load = () =>
      getSupabase()
        .then(follow)
        .catch((err) => {
          console.error('Could not read the session', err);
          if (!cancelled) setLoading(false);
        });
    const stopWaiting = onSupabaseClient((client) => void follow(client));
    // Another tab signed in: pick its session up.
    const onStorage = (e: StorageEvent) => {
      if (e.key && isSessionStorageKey(e.key) && e.newValue) void load();
    };
    window.addEventListener('storage', onStorage);
    if (hasSupabaseClient() || mayHaveSession()) void load();
    return () => {
      cancelled = true;
      stopWaiting();
      window.removeEventListener('storage', onStorage);
      unsubscribe?.();
    };
  }, []);

  const value = useMemo<AuthState>(
    () => ({
      isAuthenticated: user !== null,
      user,
      loading,
      login: () => console.log('login: the session follows the auth events'),
      logout: signOut,
    }),
    [user, loading],
  );

  return <AuthContext.Provider value={value}>{loading ? <PageSkeleton /> : children}</AuthContext.Provider>;
}

/** useAuth returns the auth state; it throws outside an AuthProvider. */
export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used within an AuthProvider');
  return ctx;
}
