/**
 * A stand-in for supabase-js's realtime channels in unit tests: channel()
 * records what a component listens to, and each FakeChannel lets a test play
 * the statuses and the changes the server would send.
 */
import { vi } from 'vitest';

type Status = 'SUBSCRIBED' | 'TIMED_OUT' | 'CLOSED' | 'CHANNEL_ERROR';
type Binding = { filter: { event: string; schema: string; table: string; filter?: string }; cb: (p: unknown) => void };

/** FakeChannel is one channel the code under test opened. */
export class FakeChannel {
  bindings: Binding[] = [];
  removed = false;
  /** What the channel tracked with track(), in order. */
  tracked: Record<string, unknown>[] = [];
  private presenceCbs: (() => void)[] = [];
  private state: Record<string, Record<string, unknown>[]> = {};
  private statusCb?: (status: Status, err?: Error) => void;
  constructor(
    public name: string,
    public opts?: { config?: { presence?: { key?: string } } },
  ) {}
  on(type: string, filter: Binding['filter'] | { event: string }, cb: (p: unknown) => void) {
    if (type === 'presence') {
      if (filter.event === 'sync') this.presenceCbs.push(() => cb(undefined));
      return this;
    }
    if (type !== 'postgres_changes') throw new Error(`unexpected listen type ${type}`);
    this.bindings.push({ filter: filter as Binding['filter'], cb });
    return this;
  }
  async track(meta: Record<string, unknown>) {
    this.tracked.push(meta);
    return 'ok';
  }
  presenceState() {
    return this.state;
  }
  /** presence plays a presence sync: everyone present, by key. */
  presence(state: Record<string, Record<string, unknown>[]>) {
    this.state = state;
    this.presenceCbs.forEach((cb) => cb());
  }
  subscribe(cb?: (status: Status, err?: Error) => void) {
    this.statusCb = cb;
    return this;
  }
  get subscribed() {
    return this.statusCb !== undefined;
  }
  /** status plays a status as supabase-js reports it. */
  status(s: Status, err?: Error) {
    this.statusCb?.(s, err);
  }
  /** change plays a database change to every binding that matches its table (and event). */
  change(table: string, eventType: 'INSERT' | 'UPDATE' | 'DELETE', row: Record<string, unknown>, old: Record<string, unknown> = {}) {
    for (const b of this.bindings) {
      if (b.filter.table !== table || (b.filter.event !== '*' && b.filter.event !== eventType)) continue;
      b.cb({ schema: 'public', table, eventType, new: row, old, commit_timestamp: new Date().toISOString(), errors: null });
    }
  }
}

/** fakeRealtime returns channel() and removeChannel() to put on a fake client, and the channels made. */
export function fakeRealtime() {
  const channels: FakeChannel[] = [];
  return {
    channels,
    channel: vi.fn((name: string, opts?: FakeChannel['opts']) => {
      const ch = new FakeChannel(name, opts);
      channels.push(ch);
      return ch;
    }),
    /** The client's realtime: setAuth refreshes the token before a join. */
    realtime: { setAuth: vi.fn(async () => {}) },
    removeChannel: vi.fn(async (ch: FakeChannel) => {
      ch.removed = true;
      return 'ok';
    }),
    /** open returns the channels not removed yet. */
    open: () => channels.filter((c) => !c.removed),
    /** last returns the newest channel. */
    last: () => channels[channels.length - 1],
  };
}

/** FakeRealtime is what fakeRealtime returns. */
export type FakeRealtime = ReturnType<typeof fakeRealtime>;
