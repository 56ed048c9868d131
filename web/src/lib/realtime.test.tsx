import { act, renderHook, waitFor } from '@testing-library/react';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useRealtime, rowId, type Change, type TableSpec } from './realtime';
import { reconnectDelayMs } from './realtimeDelay';
import { setSupabaseForTests } from './supabase';
import { fakeRealtime, type FakeRealtime } from './testing/fakeRealtime';

let rt: FakeRealtime;
function install() {
  rt = fakeRealtime();
  setSupabaseForTests({ channel: rt.channel, removeChannel: rt.removeChannel, realtime: rt.realtime } as unknown as SupabaseClient);
}
afterEach(() => {
  setSupabaseForTests(undefined);
  vi.useRealTimers();
});

const TABLES: TableSpec[] = [{ table: 'waitlist_signups' }, { table: 'profiles', event: 'UPDATE', filter: 'user_id=eq.u1' }];

describe('reconnectDelayMs', () => {
  it('waits 1, 2, 5 then 10 s, as the spec says', () => {
    expect([1, 2, 3, 4, 5, 12].map(reconnectDelayMs)).toEqual([1000, 2000, 5000, 10000, 10000, 10000]);
  });
});

describe('useRealtime', () => {
  it('listens to each table in public with its event and filter, and reports SUBSCRIBED', async () => {
    install();
    const changes: Change[] = [];
    const { result } = renderHook(() => useRealtime('console', TABLES, (c) => changes.push(c)));
    expect(result.current.status).toBe('CONNECTING');
    await waitFor(() => expect(rt.channels).toHaveLength(1));
    const ch = rt.last();
    expect(ch.name).toBe('console');
    expect(rt.realtime.setAuth).toHaveBeenCalledTimes(1); // the token as it is now, before the join
    expect(ch.bindings.map((b) => b.filter)).toEqual([
      { event: '*', schema: 'public', table: 'waitlist_signups' },
      { event: 'UPDATE', schema: 'public', table: 'profiles', filter: 'user_id=eq.u1' },
    ]);
    act(() => ch.status('SUBSCRIBED'));
    expect(result.current).toEqual({ status: 'SUBSCRIBED', failures: 0 });
    act(() => ch.change('waitlist_signups', 'INSERT', { id: 'w1', email: 'a@example.com' }));
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ table: 'waitlist_signups', eventType: 'INSERT', new: { id: 'w1' } });
    expect(rowId(changes[0])).toBe('w1');
  });

  it('drops a failed channel and opens a new one after 1, 2, 5 then 10 s; a new subscription resets the count and asks for a resync', async () => {
    install();
    vi.useFakeTimers({ shouldAdvanceTime: false });
    const resync = vi.fn();
    const { result } = renderHook(() => useRealtime('console', TABLES, () => {}, resync));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(rt.channels).toHaveLength(1);
    act(() => rt.last().status('SUBSCRIBED'));
    expect(resync).not.toHaveBeenCalled();

    const failures: ['TIMED_OUT' | 'CLOSED' | 'CHANNEL_ERROR', number][] = [
      ['CHANNEL_ERROR', 1000],
      ['TIMED_OUT', 2000],
      ['CLOSED', 5000],
      ['CHANNEL_ERROR', 10000],
      ['CHANNEL_ERROR', 10000],
    ];
    for (const [i, [status, delay]] of failures.entries()) {
      const ch = rt.last();
      const before = Date.now();
      act(() => ch.status(status, status === 'CHANNEL_ERROR' ? new Error('server went away') : undefined));
      expect(ch.removed).toBe(true);
      expect(result.current.status).toBe(status);
      expect(result.current.failures).toBe(i + 1);
      expect(result.current.retryAt).toBe(before + delay);
      if (status === 'CHANNEL_ERROR') expect(result.current.error).toBe('server went away');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(delay - 1);
      });
      expect(rt.channels).toHaveLength(i + 2 - 1); // not yet
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1);
      });
      expect(rt.channels).toHaveLength(i + 2);
      expect(rt.open()).toHaveLength(1);
    }
    act(() => rt.last().status('SUBSCRIBED'));
    expect(result.current).toEqual({ status: 'SUBSCRIBED', failures: 0 });
    expect(resync).toHaveBeenCalledTimes(1);
    // The count starts again: the next failure waits 1 s.
    const before = Date.now();
    act(() => rt.last().status('CLOSED'));
    expect(result.current.retryAt).toBe(before + 1000);
  });

  it('ignores what a dropped channel still reports', async () => {
    install();
    vi.useFakeTimers({ shouldAdvanceTime: false });
    const changes: Change[] = [];
    const { result } = renderHook(() => useRealtime('console', TABLES, (c) => changes.push(c)));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    const old = rt.last();
    act(() => old.status('CHANNEL_ERROR'));
    act(() => old.status('CLOSED')); // removeChannel makes supabase-js report CLOSED
    act(() => old.change('waitlist_signups', 'INSERT', { id: 'late' }));
    expect(result.current.status).toBe('CHANNEL_ERROR');
    expect(result.current.failures).toBe(1);
    expect(changes).toHaveLength(0);
  });

  it('removes its channel on unmount and opens none while tables is null', async () => {
    install();
    const { unmount } = renderHook(() => useRealtime('console', TABLES, () => {}));
    await waitFor(() => expect(rt.channels).toHaveLength(1));
    unmount();
    expect(rt.last().removed).toBe(true);
    renderHook(() => useRealtime('account', null, () => {}));
    await new Promise((r) => setTimeout(r, 20));
    expect(rt.channels).toHaveLength(1);
  });

  it('reports CHANNEL_ERROR and tries again when the client cannot be made', async () => {
    const fail = vi.fn().mockRejectedValue(new Error('offline'));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.doMock('./supabase', () => ({ getSupabase: fail }));
    vi.resetModules();
    const { useRealtime: fresh } = await import('./realtime');
    vi.useFakeTimers({ shouldAdvanceTime: false });
    const { result } = renderHook(() => fresh('console', TABLES, () => {}));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(result.current).toMatchObject({ status: 'CHANNEL_ERROR', error: 'offline', failures: 1 });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(fail).toHaveBeenCalledTimes(2);
    expect(result.current.failures).toBe(2);
    vi.doUnmock('./supabase');
  });
});
