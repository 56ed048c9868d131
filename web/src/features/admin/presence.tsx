/**
 * Who else is on this console page: every operator's console tracks its
 * page on one Realtime presence channel (realtime:console-presence, the
 * team's topic), keyed by account, and AlsoHere names the other operators
 * whose console shows the same page, so two founders do not answer the same
 * message twice.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { getSupabase } from '../../lib/supabase';

/** The presence channel of the console (a topic of the team's, as every "console…" topic). */
export const PRESENCE_CHANNEL = 'console-presence';

/** After the channel fails, it is opened again after this long. */
export const PRESENCE_RETRY_MS = 10_000;

/** What each console tracks. */
interface Here {
  email?: string;
  page?: string;
}

type State = Record<string, Here[]>;

/**
 * useConsolePresence tracks that the operator `userId` (shown as `email`)
 * has `page` open, and returns the e-mail addresses of the other operators
 * on the same page (empty while the channel is not joined).
 */
export function useConsolePresence(userId: string | undefined, email: string | undefined, page: string): string[] {
  const [state, setState] = useState<State>({});
  const joined = useRef<RealtimeChannel | undefined>(undefined);
  const latest = useRef<Here>({ email, page });
  useLayoutEffect(() => {
    latest.current = { email, page };
  }, [email, page]);

  useEffect(() => {
    if (!userId) return;
    let stopped = false;
    let client: SupabaseClient | undefined;
    let channel: RealtimeChannel | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const drop = () => {
      const ch = channel;
      channel = undefined;
      joined.current = undefined;
      if (ch && client) void client.removeChannel(ch).catch(() => {});
    };
    const retry = () => {
      drop();
      setState({});
      timer = setTimeout(() => void open(), PRESENCE_RETRY_MS);
    };
    const open = async () => {
      try {
        client ??= await getSupabase();
        await client.realtime.setAuth();
      } catch {
        if (!stopped) retry();
        return;
      }
      if (stopped) return;
      const ch = client.channel(PRESENCE_CHANNEL, { config: { presence: { key: userId } } });
      ch.on('presence', { event: 'sync' }, () => {
        if (!stopped && ch === channel) setState({ ...(ch.presenceState() as unknown as State) });
      });
      channel = ch;
      ch.subscribe((status) => {
        if (stopped || ch !== channel) return;
        if (status === 'SUBSCRIBED') {
          joined.current = ch;
          void ch.track({ ...latest.current });
          return;
        }
        retry();
      });
    };
    void open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      drop();
    };
  }, [userId]);

  // A new page (or address) is tracked again: it replaces the last one.
  useEffect(() => {
    void joined.current?.track({ email, page });
  }, [email, page]);

  const others = new Set<string>();
  for (const [key, metas] of Object.entries(state)) {
    if (key === userId) continue; // this operator's other tabs
    for (const m of metas) if (m.page === page) others.add(m.email || 'another operator');
  }
  return [...others].sort();
}

/** AlsoHere is a small line naming the other operators on this console page (nothing when there are none). */
export function AlsoHere({ userId, email, page }: { userId: string | undefined; email: string | undefined; page: string }) {
  const others = useConsolePresence(userId, email, page);
  if (others.length === 0) return null;
  return (
    <p role="status" className="adm-small adm-muted adm-gap-b1">
      Also here: {others.join(', ')}
    </p>
  );
}
