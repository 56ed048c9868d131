import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { SupabaseClient, User } from '@supabase/supabase-js';
import { getSupabase, hasSupabaseClient, isSessionStorageKey, mayHaveSession, onSupabaseClient } from '../../lib/supabase';
import { signOut } from './api';
import { PageSkeleton } from '../../components/PageSkeleton';
import { AuthContext, type AuthState } from '../../lib/auth';

// The state and its hook live in lib/auth, below the shared components that read them.
export { useAuth, type AuthState } from '../../lib/auth';

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
