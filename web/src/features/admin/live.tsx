/**
 * The console's live updates: one Realtime channel for the whole console
 * (LiveProvider), the indicator of its status (LiveIndicator), a counter that
 * pages add to their reload triggers (useLiveTick), and the short highlight of
 * rows that arrived or changed live (useLiveHighlight, liveRowSx).
 */
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { keyframes } from '@mui/material/styles';
import { LIVE_HIGHLIGHT_MS } from '../../config/constants';
import { rowId, useRealtime, type Change, type ChannelState, type TableSpec } from '../../lib/realtime';

/** The tables the console listens to, as the Realtime server names them. */
export const LIVE_TABLES = {
  waitlist: 'waitlist_signups',
  messages: 'contact_messages',
  profiles: 'profiles',
  accounts: 'accounts', // the users table, as the Realtime server names it
  announcements: 'announcements', // the progress of a sending
} as const;

/** Which tables each console list shows (ListView's endpoint); lists not named here do not update live. */
export const ENDPOINT_TABLES: Record<string, string[]> = {
  waitlist: [LIVE_TABLES.waitlist],
  messages: [LIVE_TABLES.messages],
  people: [LIVE_TABLES.accounts, LIVE_TABLES.profiles],
};

/** The overview counts all of them. */
export const OVERVIEW_TABLES: string[] = Object.values(LIVE_TABLES).filter((t) => t !== LIVE_TABLES.announcements);

const SPECS: TableSpec[] = Object.values(LIVE_TABLES).map((table) => ({ table }));

/** Changes seen within this time of each other reload a page once. */
export const LIVE_BATCH_MS = 250;

type Listener = { tables: string[]; cb: (c: Change | null) => void };

interface LiveValue {
  state: ChannelState | null;
  /** listen calls cb with each change of the tables, and with null after a gap (changes may be missed). */
  listen: (tables: string[], cb: (c: Change | null) => void) => () => void;
}

const noListen = () => () => {};
const LiveContext = createContext<LiveValue>({ state: null, listen: noListen });

/** LiveProvider opens the console's channel while mounted and hands its changes to the pages. */
export function LiveProvider({ children }: { children: ReactNode }) {
  const listeners = useRef(new Set<Listener>());
  const state = useRealtime(
    'console',
    SPECS,
    (c) => listeners.current.forEach((l) => l.tables.includes(c.table) && l.cb(c)),
    () => listeners.current.forEach((l) => l.cb(null)),
  );
  const listen = useCallback((tables: string[], cb: (c: Change | null) => void) => {
    const l = { tables, cb };
    listeners.current.add(l);
    return () => void listeners.current.delete(l);
  }, []);
  const value = useMemo(() => ({ state, listen }), [state, listen]);
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

/** What a page needs to follow changes: a counter to reload on, and the ids of the rows changed since the last one. */
export interface LiveTick {
  tick: number;
  ids: ReadonlySet<string>;
}

const NONE: LiveTick = { tick: 0, ids: new Set() };

/**
 * useLiveTick counts the batches of changes of the tables (0 outside a
 * LiveProvider or without tables). A page adds `tick` to what it reloads on.
 */
export function useLiveTick(tables: string[] | undefined): LiveTick {
  const { listen } = useContext(LiveContext);
  const [live, setLive] = useState<LiveTick>(NONE);
  const key = tables?.join(',') ?? '';
  useEffect(() => {
    if (!key) return;
    let pending = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = listen(key.split(','), (c) => {
      const id = c && rowId(c);
      if (id) pending.add(id);
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        const ids = pending;
        pending = new Set();
        timer = undefined;
        setLive((l) => ({ tick: l.tick + 1, ids }));
      }, LIVE_BATCH_MS);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [key, listen]);
  return live;
}

/**
 * useLiveHighlight returns the keys to highlight: after a reload caused by a
 * live change (`data` is the freshly loaded answer, `keys` its rows), the rows
 * that were not shown before and the rows the changes named. They stay
 * highlighted for LIVE_HIGHLIGHT_MS.
 */
export function useLiveHighlight(data: unknown, keys: string[], live: LiveTick): ReadonlySet<string> {
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const shown = useRef<Set<string> | null>(null);
  const seen = useRef(live.tick);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef({ keys, live });
  useLayoutEffect(() => {
    latest.current = { keys, live };
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  // Before paint, so a new row never shows unhighlighted first.
  useLayoutEffect(() => {
    if (data == null) return;
    const { keys: now, live: l } = latest.current;
    const before = shown.current;
    shown.current = new Set(now);
    if (!before || seen.current === l.tick) return;
    seen.current = l.tick;
    const added = now.filter((k) => !before.has(k) || l.ids.has(k));
    if (added.length === 0) return;
    setFresh(new Set(added));
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setFresh(new Set()), LIVE_HIGHLIGHT_MS);
  }, [data]); // only a new answer decides; the tick it follows is read as it is then
  return fresh;
}

const fade = keyframes`
  from { background-color: rgba(255, 193, 7, 0.45); }
  to { background-color: transparent; }
`;

/** The style of a highlighted row: a fade from amber, or a plain tint when the person asks for reduced motion. */
export const liveRowSx = {
  animation: `${fade} ${LIVE_HIGHLIGHT_MS}ms ease-out forwards`,
  '@media (prefers-reduced-motion: reduce)': { animation: 'none', backgroundColor: 'rgba(255, 193, 7, 0.3)' },
} as const;

/** What the indicator says for each status. */
export const STATUS_TEXT: Record<string, string> = {
  CONNECTING: 'Connecting…',
  SUBSCRIBED: 'Live',
  TIMED_OUT: 'No answer',
  CHANNEL_ERROR: 'Connection lost',
  CLOSED: 'Disconnected',
};

/** The seconds left until retryAt, counted down once a second. */
function useSecondsLeft(retryAt: number | undefined): number | undefined {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (retryAt === undefined) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [retryAt]);
  return retryAt === undefined ? undefined : Math.max(0, Math.ceil((retryAt - now) / 1000));
}

/**
 * LiveIndicator shows the console channel's status: a green dot and "Live"
 * once subscribed; grey "Connecting…"; otherwise a red dot, what went wrong
 * and the seconds until the next attempt. Nothing outside a LiveProvider.
 */
export function LiveIndicator() {
  const { state } = useContext(LiveContext);
  const left = useSecondsLeft(state?.retryAt);
  if (!state) return null;
  const ok = state.status === 'SUBSCRIBED';
  const color = ok ? 'success.main' : state.status === 'CONNECTING' ? 'text.disabled' : 'error.main';
  const detail = [state.status, state.error].filter(Boolean).join(': ');
  return (
    <Box
      role="status"
      aria-label={`Live updates: ${STATUS_TEXT[state.status]}`}
      data-status={state.status}
      title={ok ? 'Changes appear as they happen' : detail}
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, px: 1, py: 0.25, border: 1, borderColor: 'divider', borderRadius: 4 }}
    >
      <Box component="span" aria-hidden sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: color, flexShrink: 0 }} />
      <Typography component="span" variant="body2">
        {STATUS_TEXT[state.status]}
        {!ok && left !== undefined && <span aria-hidden>{`, retrying in ${left} s`}</span>}
      </Typography>
    </Box>
  );
}
