/**
 * The account pages' server data, read through the app's query client
 * (lib/queryClient): every key starts with 'account', so signing out or
 * deleting the account drops them all, and a change invalidates what it
 * touched.
 */
import { useQuery } from '@tanstack/react-query';
import { fetchSavedProfile } from '../../lib/profile';
import { fetchMyAddress } from './api';

export const accountKeys = {
  all: ['account'] as const,
  profile: (userId?: string) => (userId === undefined ? ['account', 'profile'] : ['account', 'profile', userId]) as readonly string[],
  address: (userId?: string) => (userId === undefined ? ['account', 'address'] : ['account', 'address', userId]) as readonly string[],
  photos: (userId: string | undefined) => ['account', 'photos', userId ?? ''] as const,
};

/**
 * useSavedProfile is the signed-in person's saved profile (get-profile-me).
 * The profile is saved by the onboarding pages, outside this cache, so
 * every visit reads it again (staleTime 0) while showing what it had.
 * Without a userId (nobody signed in, as the local session says) nothing
 * is asked: the server could only answer 401.
 */
export function useSavedProfile(userId: string | undefined, enabled = true) {
  return useQuery({ queryKey: accountKeys.profile(userId ?? ''), queryFn: fetchSavedProfile, enabled: enabled && Boolean(userId), staleTime: 0 });
}

/** useMyAddress is what was sent with the account's e-mail address (account-address); nothing is asked without a userId. */
export function useMyAddress(userId: string | undefined, enabled = true) {
  return useQuery({ queryKey: accountKeys.address(userId ?? ''), queryFn: fetchMyAddress, enabled: enabled && Boolean(userId) });
}
