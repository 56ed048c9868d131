/**
 * Live database changes over the Realtime socket (/realtime/v1/websocket),
 * through supabase-js's channel API. supabase-js is reached with the lazy
 * getSupabase(), so importing this module does not pull it into first-load
 * code.
 */
import { useEffect, useRef, useState } from 'react';
import type { RealtimeChannel, RealtimePostgresChangesPayload, SupabaseClient } from '@supabase/supabase-js';
import { getSupabase } from './supabase';
import { reconnectDelayMs } from './realtimeDelay';

/** A channel's state: CONNECTING until the first answer, then the statuses supabase-js reports. */
export type ChannelStatus = 'CONNECTING' | 'SUBSCRIBED' | 'TIMED_OUT' | 'CLOSED' | 'CHANNEL_ERROR';

/** What useRealtime reports: the status, the server's reason on an error, and when it tries again. */
export interface ChannelState {
  status: ChannelStatus;
  /** The reason given with CHANNEL_ERROR (e.g. the server's refusal). */
  error?: string;
  /** When the next attempt starts (Date.now() milliseconds), while not subscribed. */
  retryAt?: number;
  /** How many attempts failed in a row (0 once subscribed). */
  failures: number;
}

/** One table to listen to, with an optional row filter such as `user_id=eq.<id>`. */
export interface TableSpec {
  table: string;
  event?: '*' | 'INSERT' | 'UPDATE' | 'DELETE';
  filter?: string;
}

/** One change as it reaches the app. */
export interface Change {
  table: string;
  eventType: 'INSERT' | 'UPDATE' | 'DELETE';
  new: Record<string, unknown>;
  old: Record<string, unknown>;
  commitTimestamp: string;
}

/** rowId is the key of the changed row: `id`, else `user_id` (profiles), from the new row or else the old one. */
export function rowId(c: Change): string | undefined {
  for (const row of [c.new, c.old]) {
    const id = row?.id ?? row?.user_id;
    if (typeof id === 'string' || typeof id === 'number') return String(id);
  }
  return undefined;
}

function toChange(p: RealtimePostgresChangesPayload<Record<string, unknown>>): Change {
  return {
    table: p.table,
    eventType: p.eventType,
    new: (p.new ?? {}) as Record<string, unknown>,
    old: (p.old ?? {}) as Record<string, unknown>,
    commitTimestamp: p.commit_timestamp,
  };
}

/**
 * useRealtime subscribes to changes of the given tables on one channel while
 * `tables` is not null, and returns the channel's state. Every status other
 * than SUBSCRIBED (TIMED_OUT, CLOSED, CHANNEL_ERROR) drops the channel and
 * opens a new one after 1, 2, 5, then every 10 s; a subscription after such a
 * gap calls onResubscribed, since changes made meanwhile were not seen.
 * The latest onChange and onResubscribed are used; they need not be stable.
 */
export function useRealtime(
  name: string,
  tables: TableSpec[] | null,
  onChange: (c: Change) => void,
  onResubscribed?: () => void,
): ChannelState {
  const [state, setState] = useState<ChannelState>({ status: 'CONNECTING', failures: 0 });
  const handlers = useRef({ onChange, onResubscribed });
  useEffect(() => {
    handlers.current = { onChange, onResubscribed };
  });
  const key = tables ? JSON.stringify(tables) : '';
  // Another channel or other tables: connecting again from the start (set while rendering, not in the effect).
  const subscription = `${name}|${key}`;
  const [current, setCurrent] = useState(subscription);
  if (current !== subscription) {
    setCurrent(subscription);
    setState({ status: 'CONNECTING', failures: 0 });
  }

  useEffect(() => {
    if (!key) return;
    const specs = JSON.parse(key) as TableSpec[];
    let stopped = false;
    let failures = 0;
    let client: SupabaseClient | undefined;
    let channel: RealtimeChannel | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const drop = () => {
      const ch = channel;
      channel = undefined;
      if (ch && client) void client.removeChannel(ch).catch(() => {});
    };
    const retry = (status: Exclude<ChannelStatus, 'CONNECTING' | 'SUBSCRIBED'>, error?: string) => {
      drop();
      failures += 1;
      const delay = reconnectDelayMs(failures);
      setState({ status, error, retryAt: Date.now() + delay, failures });
      timer = setTimeout(() => void open(), delay);
    };
    const open = async () => {
      try {
        client ??= await getSupabase();
        // Join with the session's token as it is now: supabase-js passes a new token on sign-in and refresh,
        // not after two-step verification, and an operator's channel needs the verified (aal2) one.
        await client.realtime.setAuth();
      } catch (err) {
        if (!stopped) retry('CHANNEL_ERROR', (err as Error).message);
        return;
      }
      if (stopped) return;
      let ch = client.channel(name);
      for (const s of specs) {
        ch = ch.on(
          'postgres_changes',
          { event: s.event ?? '*', schema: 'public', table: s.table, ...(s.filter ? { filter: s.filter } : {}) },
          (p: RealtimePostgresChangesPayload<Record<string, unknown>>) => {
            if (!stopped && ch === channel) handlers.current.onChange(toChange(p));
          },
        );
      }
      channel = ch;
      ch.subscribe((status, err) => {
        if (stopped || ch !== channel) return; // a channel we already dropped
        if (status === 'SUBSCRIBED') {
          const after = failures > 0;
          failures = 0;
          setState({ status, failures: 0 });
          if (after) handlers.current.onResubscribed?.();
          return;
        }
        retry(status as 'TIMED_OUT' | 'CLOSED' | 'CHANNEL_ERROR', err?.message);
      });
    };
    void open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      drop();
    };
  }, [name, key]);

  return state;
}
