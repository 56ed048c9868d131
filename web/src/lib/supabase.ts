import type { SupabaseClient } from '@supabase/supabase-js';
import { DEFAULT_SUPPORT_EMAIL, REALTIME } from '../config/constants';
import { reconnectDelayMs } from './realtimeDelay';

/** What the server tells the app at run time (GET /config.json). */
export interface RuntimeConfig {
  url: string;
  anonKey: string;
  supportEmail: string;
}

let configPromise: Promise<RuntimeConfig> | undefined;
let clientPromise: Promise<SupabaseClient> | undefined;

/** loadConfig fetches /config.json once. */
export function loadConfig(): Promise<RuntimeConfig> {
  configPromise ??= fetch('/config.json', { headers: { Accept: 'application/json' } })
    .then((res) => {
      if (!res.ok) throw new Error(`Could not load the app's settings (status ${res.status})`);
      return res.json() as Promise<RuntimeConfig>;
    })
    .then((cfg) => ({ ...cfg, supportEmail: cfg.supportEmail || DEFAULT_SUPPORT_EMAIL }))
    .catch((err) => {
      configPromise = undefined; // try again next time
      throw err;
    });
  return configPromise;
}

const createdListeners = new Set<(client: SupabaseClient) => void>();

/**
 * getSupabase returns the one supabase-js client of the app, made from the
 * server's /config.json. The session is kept in localStorage and refreshed
 * automatically, as supabase-js does by default. The supabase-js code itself
 * is downloaded on the first call (a dynamic import), so pages that never
 * need it never fetch it.
 */
export function getSupabase(): Promise<SupabaseClient> {
  if (!clientPromise) {
    clientPromise = Promise.all([loadConfig(), import('@supabase/supabase-js'), import('./sessionEnded')])
      .then(([cfg, { createClient }, watch]) =>
        createClient(cfg.url, cfg.anonKey, {
          auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
          global: { fetch: watch.watchingSession(cfg.anonKey, () => getSupabase().then((c) => c.auth.signOut({ scope: 'local' }))) },
          realtime: { heartbeatIntervalMs: REALTIME.heartbeatMs, reconnectAfterMs: reconnectDelayMs, timeout: REALTIME.timeoutMs },
        }),
      )
      .catch((err) => {
        clientPromise = undefined;
        throw err;
      });
    void clientPromise.then((client) => createdListeners.forEach((cb) => cb(client)), () => {});
  }
  return clientPromise;
}

/** hasSupabaseClient reports whether the client has been asked for already. */
export function hasSupabaseClient(): boolean {
  return clientPromise !== undefined;
}

/** onSupabaseClient calls cb once the client exists (made by any caller); it returns the unsubscribe. */
export function onSupabaseClient(cb: (client: SupabaseClient) => void): () => void {
  createdListeners.add(cb);
  return () => createdListeners.delete(cb);
}

/** isSessionStorageKey tells whether a localStorage key is where supabase-js keeps a session. */
export function isSessionStorageKey(key: string): boolean {
  return /^sb-.+-auth-token$/.test(key);
}

/**
 * mayHaveSession tells, without loading supabase-js, whether this browser may
 * hold a session: one stored by supabase-js in localStorage, or one arriving
 * in the address (a confirmation link's #access_token=..., or its #error=...).
 */
export function mayHaveSession(): boolean {
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && isSessionStorageKey(key)) return true;
    }
  } catch {
    // Storage blocked: supabase-js could not keep a session either.
  }
  return /(^|[#&])(access_token|error_description)=/.test(window.location.hash);
}

/** setSupabaseForTests replaces the client (web unit tests only). */
export function setSupabaseForTests(client: SupabaseClient | undefined, config?: RuntimeConfig) {
  clientPromise = client ? Promise.resolve(client) : undefined;
  configPromise = config ? Promise.resolve(config) : undefined;
  if (client) createdListeners.forEach((cb) => cb(client));
}
