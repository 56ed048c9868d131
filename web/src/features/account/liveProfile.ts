/**
 * The account page follows the person's own profile over Realtime, so a
 * change made on another device shows without a reload.
 */
import { useRealtime, type ChannelState } from '../../lib/realtime';

/**
 * useOwnProfileLive calls onChange(true) when the profile of userId changes,
 * and onChange(false) after a reconnect (a change may have been missed).
 * Nothing while userId is unknown.
 */
export function useOwnProfileLive(userId: string | undefined, onChange: (changed: boolean) => void): ChannelState {
  return useRealtime(
    `profile:${userId ?? ''}`,
    userId ? [{ table: 'profiles', filter: `user_id=eq.${userId}` }] : null,
    () => onChange(true),
    () => onChange(false),
  );
}
