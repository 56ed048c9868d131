import { REALTIME } from '../config/constants';

/**
 * reconnectDelayMs is the wait before reconnect attempt `tries` (1 for the
 * first): 1, 2, 5 s, then 10 s for every later attempt (spec section 9). Both
 * the socket (realtime-js's reconnectAfterMs) and the app's channels use it.
 */
export function reconnectDelayMs(tries: number): number {
  const steps = REALTIME.reconnectMs;
  return steps[Math.min(Math.max(tries, 1), steps.length) - 1];
}
