/**
 * The signed-in person's saved profile (get-profile-me, spec call 4), read
 * by the onboarding forms, the role choice and My account.
 */
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { ACCOUNT_PATH, FUNCTIONS } from '../config/constants';
import { functionErrorReason } from './functionError';
import { getSupabase, mayHaveSession } from './supabase';

/** The whole profile as the server keeps it, with the account's e-mail. */
export interface SavedProfile {
  user_id: string;
  email: string;
  role: 'buyer' | 'seller' | 'buyer_and_seller' | null;
  full_name?: string;
  location?: string;
  age?: number | null;
  phone_number?: string;
  gender?: string;
  height?: string;
  waist_size?: string;
  style_description?: string;
  clothing_aesthetics?: string[];
  inspiration?: string;
  wants_clearance_program?: boolean;
  body_photo_urls?: string[];
  profile_pic_url?: string | null;
  business_name?: string;
  registration_number?: string | null;
  business_mode?: string;
  logo_urls?: string[];
  created_at?: string;
  updated_at?: string;
}

/** fetchSavedProfile invokes get-profile-me; it throws an Error with the message to show. */
export async function fetchSavedProfile(): Promise<SavedProfile> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.functions.invoke(FUNCTIONS.getProfileMe, { method: 'POST' });
  if (error) throw new Error(await functionErrorReason(error));
  return data as SavedProfile;
}

/** The state /account gets when a finished profile was sent there from a sign-up form. */
export interface FinishedProfileState {
  finished: true;
}

/**
 * useFinishedProfileGoesToAccount sends a person whose profile is finished
 * (a role chosen and saved) from a first-time form (/select_role, the
 * sign-up forms without ?edit=1) to My account, where Edit opens the form
 * with the saved values: a blank form never overwrites a profile. When
 * skip is true (editing), nothing happens. A profile that cannot be read
 * leaves the form where it is (its own calls say what is wrong).
 */
export function useFinishedProfileGoesToAccount(skip = false): void {
  const navigate = useNavigate();
  useEffect(() => {
    // Without a session there is no profile to ask for (the page sends the
    // visitor to sign in): no request, and supabase-js is not loaded.
    if (skip || !mayHaveSession()) return;
    let cancelled = false;
    fetchSavedProfile()
      .then((p) => {
        if (!cancelled && p.role) navigate(ACCOUNT_PATH, { replace: true, state: { finished: true } satisfies FinishedProfileState });
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [skip, navigate]);
}
