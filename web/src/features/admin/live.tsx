/**
 * The console's live updates: one Realtime channel for the whole console
 * (LiveProvider) that marks stale, in the app's QueryClient, the queries
 * whose tables changed (so the pages showing them load again), the indicator
 * of its status (LiveIndicator), and the short highlight of rows that
 * arrived or changed live (useLiveHighlight).
 */
import { createContext, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { LIVE_HIGHLIGHT_MS } from '../../config/constants';
import { rowId, useRealtime, type ChannelState, type TableSpec } from '../../lib/realtime';
import { adminKeys } from './api';

/** The tables the console listens to, as the Realtime server names them. */
export const LIVE_TABLES = {
  waitlist: 'waitlist_signups',
  messages: 'contact_messages',
  profiles: 'profiles',
  accounts: 'accounts', // the users table, as the Realtime server names it
  announcements: 'announcements', // the progress of a sending
} as const;

/** Which tables each console list shows (ListView's endpoint), for the highlight of its rows. */
export const ENDPOINT_TABLES: Record<string, string[]> = {
  waitlist: [LIVE_TABLES.waitlist],
  messages: [LIVE_TABLES.messages],
  people: [LIVE_TABLES.accounts, LIVE_TABLES.profiles],
};

/** The queries a change of each table makes stale: its lists (every filter and page), and the counts that include it. */
export const TABLE_KEYS: Record<string, (readonly unknown[])[]> = {
  [LIVE_TABLES.waitlist]: [adminKeys.list('waitlist'), adminKeys.overview, adminKeys.referrals()],
  [LIVE_TABLES.messages]: [adminKeys.list('messages'), adminKeys.overview],
  [LIVE_TABLES.profiles]: [adminKeys.list('people'), adminKeys.overview],
  [LIVE_TABLES.accounts]: [adminKeys.list('people'), adminKeys.overview],
  [LIVE_TABLES.announcements]: [adminKeys.announcements, adminKeys.bounces],
};

const SPECS: TableSpec[] = Object.values(LIVE_TABLES).map((table) => ({ table }));

/** Changes seen within this time of each other reload a page once. */
export const LIVE_BATCH_MS = 250;

/** One batch of changes: the tables it touched ('all' after a gap, when changes may have been missed) and the rows it named. */
interface Batch {
  seq: number;
  tables: ReadonlySet<string> | 'all';
  ids: ReadonlySet<string>;
}

const NO_BATCH: Batch = { seq: 0, tables: new Set(), ids: new Set() };

interface LiveValue {
  state: ChannelState | null;
  batch: Batch;
}

const LiveContext = createContext<LiveValue>({ state: null, batch: NO_BATCH });

/** invalidate marks stale the queries of the tables (all of them after a gap); the ones on screen load again. */
function invalidate(client: QueryClient, tables: ReadonlySet<string> | 'all') {
  const names = tables === 'all' ? Object.keys(TABLE_KEYS) : [...tables];
  const keys = new Map<string, readonly unknown[]>();
  for (const t of names) for (const k of TABLE_KEYS[t] ?? []) keys.set(JSON.stringify(k), k);
  for (const queryKey of keys.values()) void client.invalidateQueries({ queryKey });
}

/**
 * LiveProvider opens the console's channel while mounted. Changes that
 * arrive within LIVE_BATCH_MS of each other make one batch: its queries are
 * invalidated once, and its rows are handed to the highlight.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const [batch, setBatch] = useState<Batch>(NO_BATCH);
  const pending = useRef<{ tables: Set<string> | 'all'; ids: Set<string>; timer?: ReturnType<typeof setTimeout> }>({ tables: new Set(), ids: new Set() });
  useEffect(() => () => clearTimeout(pending.current.timer), []);
  const note = (table: string | null, id?: string) => {
    const p = pending.current;
    if (table === null) p.tables = 'all';
    else if (p.tables !== 'all') p.tables.add(table);
    if (id) p.ids.add(id);
    if (p.timer !== undefined) return;
    p.timer = setTimeout(() => {
      const { tables, ids } = pending.current;
      pending.current = { tables: new Set(), ids: new Set() };
      setBatch((b) => ({ seq: b.seq + 1, tables, ids }));
      invalidate(client, tables);
    }, LIVE_BATCH_MS);
  };
  const state = useRealtime(
    'console',
    SPECS,
    (c) => note(c.table, rowId(c)),
    () => note(null),
  );
  const value = useMemo(() => ({ state, batch }), [state, batch]);
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

/**
 * useLiveHighlight returns the keys to highlight: when a new answer (`answer`
 * changes with each one; `keys` are its rows) follows a batch of changes of `tables`, the rows
 * that were not shown before and the rows the changes named. They stay
 * highlighted for LIVE_HIGHLIGHT_MS.
 */
export function useLiveHighlight(answer: unknown, keys: string[], tables: string[] | undefined): ReadonlySet<string> {
  const { batch } = useContext(LiveContext);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const shown = useRef<Set<string> | null>(null);
  /** The last batch of these tables, and the one the highlight last followed. */
  const last = useRef<{ seq: number; ids: ReadonlySet<string> }>({ seq: 0, ids: new Set() });
  const seen = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef(keys);
  const key = tables?.join(',') ?? '';
  useLayoutEffect(() => {
    latest.current = keys;
  });
  useLayoutEffect(() => {
    if (!key || batch.seq === 0) return;
    if (batch.tables === 'all' || key.split(',').some((t) => (batch.tables as ReadonlySet<string>).has(t))) {
      last.current = { seq: batch.seq, ids: batch.ids };
    }
  }, [batch, key]);
  useEffect(() => () => clearTimeout(timer.current), []);
  // Before paint, so a new row never shows unhighlighted first.
  useLayoutEffect(() => {
    if (answer == null) return;
    const now = latest.current;
    const before = shown.current;
    shown.current = new Set(now);
    const l = last.current;
    if (!before || seen.current === l.seq) return;
    seen.current = l.seq;
    const added = now.filter((k) => !before.has(k) || l.ids.has(k));
    if (added.length === 0) return;
    setFresh(new Set(added));
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setFresh(new Set()), LIVE_HIGHLIGHT_MS);
  }, [answer]); // only a new answer decides; the batch it follows is read as it is then
  return fresh;
}

/** What the indicator says for each status. */
export const STATUS_TEXT: Record<string, string> = {
  CONNECTING: 'Connecting…',
  SUBSCRIBED: 'Live',
  TIMED_OUT: 'No answer',
  CHANNEL_ERROR: 'Connection lost',
  CLOSED: 'Disconnected',
};

/** Countdown counts the seconds until `until`, once a second; a new time is a new Countdown (its key), which starts afresh. */
function Countdown({ until }: { until: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return <span aria-hidden>{`, retrying in ${Math.max(0, Math.ceil((until - now) / 1000))} s`}</span>;
}

/**
 * LiveIndicator shows the console channel's status: a green dot and "Live"
 * once subscribed; grey "Connecting…"; otherwise a red dot, what went wrong
 * and the seconds until the next attempt. Nothing outside a LiveProvider.
 */
export function LiveIndicator() {
  const { state } = useContext(LiveContext);
  if (!state) return null;
  const ok = state.status === 'SUBSCRIBED';
  const tone = ok ? 'ok' : state.status === 'CONNECTING' ? 'wait' : 'bad';
  const detail = [state.status, state.error].filter(Boolean).join(': ');
  return (
    <span
      role="status"
      aria-label={`Live updates: ${STATUS_TEXT[state.status]}`}
      data-status={state.status}
      title={ok ? 'Changes appear as they happen' : detail}
      className="adm-live"
    >
      <span aria-hidden className={`adm-live-dot adm-live-${tone}`} />
      <span>
        {STATUS_TEXT[state.status]}
        {!ok && state.retryAt !== undefined && <Countdown key={state.retryAt} until={state.retryAt} />}
      </span>
    </span>
  );
}
