import { NETWORK_ERROR_MESSAGE, isNetworkFailure } from '../../lib/functionError';
import { getSupabase } from '../../lib/supabase';

/** The founders' console API (/admin/v1), called with the signed-in operator's token. */

/**
 * The query keys of the console's server data in the app's one QueryClient:
 * ['admin', list, filter...], so a mutation or a realtime change invalidates
 * the list it changed (every filter and page of it) and nothing else.
 */
export const adminKeys = {
  all: ['admin'] as const,
  access: (userId: string | undefined) => ['admin', 'access', userId] as const,
  /** A list (waitlist, messages, people, audit) under one filter, search and sort. */
  list: (endpoint: string, params?: Record<string, string | undefined>) =>
    (params ? ['admin', endpoint, params] : ['admin', endpoint]) as readonly unknown[],
  overview: ['admin', 'overview'] as const,
  analytics: (query: string) => ['admin', 'analytics', query] as const,
  person: (id: string) => ['admin', 'people', 'one', id] as const,
  referrals: (program?: string) => (program === undefined ? ['admin', 'referrals'] : ['admin', 'referrals', program]) as readonly unknown[],
  referralsOf: (signupId: string) => ['admin', 'referrals', 'of', signupId] as const,
  settings: ['admin', 'settings'] as const,
  announcements: ['admin', 'announcements'] as const,
  bounces: ['admin', 'bounces'] as const,
};

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  total: number;
  /** The total is a lower bound: the server stops counting there. */
  totalAtLeast?: boolean;
}

/**
 * An answer the console shows as it is: 401, 403 (not an operator), 400 or 404 with the server's message.
 * code is the auth API's error code when there is one: 403 'insufficient_aal' is an operator who has not
 * passed two-step sign-in yet.
 */
export class AdminError extends Error {
  constructor(
    public status: number,
    message: string,
    public code?: string,
  ) {
    super(message);
  }
}

async function authHeader(): Promise<Record<string, string>> {
  const supabase = await getSupabase();
  const { data } = await supabase.auth.getSession();
  const token = data.session?.access_token;
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/**
 * errorText is the one place that turns a failed console call into the words
 * a person sees: the server's message for an answer (AdminError), the app's
 * network words when the call never reached the server, else the error's own.
 */
export function errorText(e: unknown): string {
  if (e instanceof AdminError) return e.message;
  if (isNetworkFailure(e)) return NETWORK_ERROR_MESSAGE;
  return e instanceof Error ? e.message : String(e);
}

async function call(path: string, init: RequestInit = {}, signal?: AbortSignal): Promise<Response> {
  const res = await fetch(`/admin/v1/${path}`, {
    ...init,
    signal,
    headers: { ...(await authHeader()), ...(init.body ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
  });
  if (!res.ok) {
    let msg = `The server answered ${res.status}`;
    let code: string | undefined;
    try {
      const body = (await res.json()) as { error?: string; error_code?: string };
      if (body.error) msg = body.error;
      code = body.error_code;
    } catch {
      /* not JSON */
    }
    throw new AdminError(res.status, msg, code);
  }
  return res;
}

/** adminGet reads a JSON answer; a query passes its signal, so leaving a page cancels its loads. */
export async function adminGet<T>(path: string, signal?: AbortSignal): Promise<T> {
  return (await call(path, {}, signal)).json() as Promise<T>;
}

/** adminSend sends a JSON body (PATCH, POST) and reads the answer. */
export async function adminSend<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await call(path, { method, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<T>;
}

/** downloadCSV fetches a CSV export with the operator's token and saves it. */
export async function downloadCSV(path: string): Promise<void> {
  const res = await call(path);
  const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? 'salaula.csv';
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** query builds a query string from the set values. */
export function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

export interface WaitlistItem {
  id: string;
  email: string;
  program: string;
  pagePath: string;
  referrer: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  unsubscribedAt: string | null;
  createdAt: string;
  /** The address whose personal link the sign-up came through, '' for none. */
  referredBy: string;
}

export interface Message {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  subject: string;
  message: string;
  status: 'open' | 'handled';
  note: string;
  handledAt: string | null;
  createdAt: string;
}

export interface Profile {
  role: string | null;
  full_name: string;
  location: string;
  age: number | null;
  phone_number: string;
  gender: string;
  height: string;
  waist_size: string;
  style_description: string;
  clothing_aesthetics: string[];
  inspiration: string;
  wants_clearance_program: boolean;
  body_photo_urls: string[];
  profile_pic_url: string | null;
  business_name: string;
  registration_number: string | null;
  business_mode: string;
  logo_urls: string[];
}

export interface Person {
  id: string;
  email: string;
  isOperator: boolean;
  createdAt: string;
  lastSignInAt: string | null;
  profile: Profile | null;
}

export interface PersonDetail extends Person {
  emailConfirmedAt: string | null;
  /** When the person proved they read the address (null: never). */
  emailProvenAt: string | null;
  activeSessions: number;
  images: { key: string; url: string; size: number; contentType: string }[];
}

export interface AuditEntry {
  id: string;
  actorEmail: string;
  action: string;
  targetType: string;
  targetId: string;
  detail: Record<string, unknown>;
  ip: string;
  createdAt: string;
  /** Who or what the target is in words: a person's name (else e-mail), a message's sender, an announcement's subject; '' when gone. */
  targetName: string;
}

export interface Overview {
  totals: {
    accounts: number;
    operators: number;
    profilesByRole: Record<string, number>;
    onboardingUnfinished: number;
    waitlist: Record<string, { subscribed: number; unsubscribed: number }>;
    messages: { open: number; handled: number };
  };
  daily: { date: string; accounts: number; profilesCompleted: number; waitlist: Record<string, number>; messages: number }[];
  sources: {
    campaigns: { source: string; campaign: string; count: number }[];
    referrers: { name: string; count: number }[];
    pages: { name: string; count: number }[];
  };
  newest: { kind: string; id: string; title: string; detail: string; at: string }[];
  asOf: string;
}

/** when formats a time for the console (the founders are in Lusaka). */
export function when(iso: string | null): string {
  if (!iso) return '';
  return new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lusaka' });
}
