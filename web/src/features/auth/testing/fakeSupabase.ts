/**
 * A stand-in supabase-js client for the auth feature's unit tests: every
 * method the app calls is a vi.fn() with a sensible default answer, and
 * emit() plays the auth events supabase-js would send.
 */
import type { AuthChangeEvent, Session, SupabaseClient, User } from '@supabase/supabase-js';
import { vi } from 'vitest';
import { setSupabaseForTests } from '../../../lib/supabase';
import { fakeRealtime } from '../../../lib/testing/fakeRealtime';

/** makeUser returns a user shaped like the auth service's. */
export function makeUser(email = 'chanda@example.com', id = '6f1c2d3e-0000-4000-8000-000000000001'): User {
  return {
    id,
    email,
    aud: 'authenticated',
    role: 'authenticated',
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: {},
    identities: [],
    created_at: '2026-11-22T10:00:00Z',
  } as User;
}

/** makeSession returns a session for the user. */
export function makeSession(user: User = makeUser()): Session {
  return {
    access_token: 'access-token',
    refresh_token: 'refresh-token',
    expires_in: 3600,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    token_type: 'bearer',
    user,
  };
}

/** authError is the { message, status, code } error supabase-js returns. */
export function authError(message: string, status = 400, code = 'validation_failed') {
  return Object.assign(new Error(message), { name: 'AuthApiError', status, code, __isAuthError: true });
}

type Listener = (event: AuthChangeEvent, session: Session | null) => void;

/** installFakeSupabase makes a fake client, installs it as the app's client and returns it. */
export function installFakeSupabase(initial: Session | null = null) {
  const listeners = new Set<Listener>();
  let session = initial;
  const emit = (event: AuthChangeEvent, next: Session | null) => {
    session = next;
    listeners.forEach((l) => l(event, next));
  };
  const auth = {
    getSession: vi.fn(async () => ({ data: { session }, error: null })),
    onAuthStateChange: vi.fn((listener: Listener) => {
      listeners.add(listener);
      queueMicrotask(() => listener('INITIAL_SESSION', session));
      return { data: { subscription: { id: 'sub', callback: listener, unsubscribe: vi.fn(() => listeners.delete(listener)) } } };
    }),
    signUp: vi.fn(async ({ email }: { email: string; password: string }) => {
      const user = makeUser(email);
      const s = makeSession(user);
      emit('SIGNED_IN', s);
      return { data: { user, session: s }, error: null };
    }),
    signInWithPassword: vi.fn(async ({ email }: { email: string; password: string }) => {
      const user = makeUser(email);
      const s = makeSession(user);
      emit('SIGNED_IN', s);
      return { data: { user, session: s }, error: null };
    }),
    signOut: vi.fn(async () => {
      emit('SIGNED_OUT', null);
      return { error: null };
    }),
    resetPasswordForEmail: vi.fn(async () => ({ data: {}, error: null })),
    resend: vi.fn(async (): Promise<{ data: unknown; error: unknown }> => ({ data: {}, error: null })),
    verifyOtp: vi.fn(async () => {
      const s = makeSession();
      emit('PASSWORD_RECOVERY', s);
      return { data: { user: s.user, session: s }, error: null };
    }),
    updateUser: vi.fn(async () => ({ data: { user: session?.user ?? makeUser() }, error: null })),
    // Two-step sign-in: off unless a test says otherwise.
    mfa: {
      getAuthenticatorAssuranceLevel: vi.fn(async () => ({
        data: { currentLevel: 'aal1', nextLevel: 'aal1', currentAuthenticationMethods: [] },
        error: null as unknown,
      })),
      listFactors: vi.fn(async () => ({ data: { all: [] as unknown[], totp: [] as unknown[], phone: [] }, error: null as unknown })),
      challengeAndVerify: vi.fn(async (): Promise<{ data: unknown; error: unknown }> => ({ data: {}, error: null })),
      enroll: vi.fn(async () => ({
        data: { id: 'factor-1', type: 'totp', totp: { qr_code: 'data:image/svg+xml;utf-8,<svg/>', secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Salaula:x' } },
        error: null as unknown,
      })),
      unenroll: vi.fn(async (): Promise<{ data: unknown; error: unknown }> => ({ data: {}, error: null })),
    },
  };
  const functions = {
    invoke: vi.fn(async (): Promise<{ data: unknown; error: unknown }> => ({ data: { role: null }, error: null })),
  };
  const realtime = fakeRealtime();
  const client = { auth, functions, channel: realtime.channel, removeChannel: realtime.removeChannel, realtime: realtime.realtime } as unknown as SupabaseClient;
  setSupabaseForTests(client, { url: 'http://localhost', anonKey: 'anon', supportEmail: 'support@salaula.co.zm' });
  return {
    auth,
    functions,
    realtime,
    emit,
    listenerCount: () => listeners.size,
    /** withSecondStep makes the account have a verified authenticator app and the session need its code. */
    withSecondStep() {
      auth.mfa.getAuthenticatorAssuranceLevel.mockImplementation(async () => ({
        data: { currentLevel: 'aal1', nextLevel: 'aal2', currentAuthenticationMethods: [] },
        error: null,
      }));
      const factor = { id: 'factor-1', friendly_name: 'Authenticator app', factor_type: 'totp', status: 'verified' };
      auth.mfa.listFactors.mockImplementation(async () => ({ data: { all: [factor], totp: [factor], phone: [] }, error: null }));
    },
    /** withRole makes get-profile-me answer this role. */
    withRole(role: string | null) {
      functions.invoke.mockImplementation(async () => ({ data: { user_id: 'u', role }, error: null }));
    },
  };
}

/** FakeSupabase is what installFakeSupabase returns. */
export type FakeSupabase = ReturnType<typeof installFakeSupabase>;
