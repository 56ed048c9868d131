import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { DEFAULT_SUPPORT_EMAIL } from '../config/constants';

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

/**
 * getSupabase returns the one supabase-js client of the app, made from the
 * server's /config.json. The session is kept in localStorage and refreshed
 * automatically, as supabase-js does by default.
 */
export function getSupabase(): Promise<SupabaseClient> {
  clientPromise ??= loadConfig()
    .then((cfg) =>
      createClient(cfg.url, cfg.anonKey, {
        auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
      }),
    )
    .catch((err) => {
      clientPromise = undefined;
      throw err;
    });
  return clientPromise;
}

/** setSupabaseForTests replaces the client (web unit tests only). */
export function setSupabaseForTests(client: SupabaseClient | undefined, config?: RuntimeConfig) {
  clientPromise = client ? Promise.resolve(client) : undefined;
  configPromise = config ? Promise.resolve(config) : undefined;
}
