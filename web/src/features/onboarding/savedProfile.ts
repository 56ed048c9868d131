/**
 * A saved profile (get-profile-me, spec call 4) and how the onboarding forms
 * are prefilled from it when a person edits their profile from /account
 * (`?edit=1`): after a save the form goes back to /account.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ACCOUNT_PATH, FUNCTIONS, PHONE_PREFIX } from '../../config/constants';
import { getSupabase, mayHaveSession } from '../../lib/supabase';
import { functionErrorReason } from '../auth/api';
import { EMPTY_BUYER } from './components/OnboardingForm';
import type { BuyerFields, SellerFields } from './validation';

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

/** The person's fields of a saved profile, as the forms hold them (phone after +260). */
function personFrom(p: SavedProfile) {
  const phone = p.phone_number ?? '';
  return {
    full_name: p.full_name ?? '',
    location: p.location ?? '',
    age: p.age == null ? '' : String(p.age),
    phone_number: phone.startsWith(PHONE_PREFIX) ? phone.slice(PHONE_PREFIX.length) : phone,
    parental_consent: false,
  };
}

/** buyerFieldsFrom prefills the buyer forms; the Terms stay ticked, as the person accepted them. */
export function buyerFieldsFrom(p: SavedProfile): BuyerFields {
  const gender = (p.gender ?? '').toLowerCase();
  return {
    ...EMPTY_BUYER,
    ...personFrom(p),
    gender: gender === 'male' ? 'Male' : gender === 'female' ? 'Female' : '',
    height: p.height ?? '',
    waist_size: p.waist_size ?? '',
    user_description: p.style_description ?? '',
    clothing_aesthetics: p.clothing_aesthetics ?? [],
    inspiration: p.inspiration ?? '',
    wants_clearance_program: Boolean(p.wants_clearance_program),
    terms: p.role !== null,
  };
}

/** sellerFieldsFrom prefills the seller form (the business part is empty for a buyer adding it). */
export function sellerFieldsFrom(p: SavedProfile): SellerFields {
  return {
    ...personFrom(p),
    gender: (p.gender ?? '').toLowerCase(),
    business_name: p.business_name ?? '',
    registration_number: p.registration_number ?? '',
    business_mode: p.business_mode ?? '',
    terms: p.role !== null,
  };
}

/** What useEditProfile tells a form. */
export interface EditMode {
  /** The form was opened from /account to change a saved profile. */
  editing: boolean;
  loading: boolean;
  /** Why the saved profile could not be loaded. */
  error: string;
}

/**
 * useEditProfile: with ?edit=1 (editing true), loads the saved profile once
 * and hands it to prefill.
 */
export function useEditProfile(editing: boolean, prefill: (p: SavedProfile) => void): EditMode {
  const [loading, setLoading] = useState(editing);
  const [error, setError] = useState('');
  const prefillRef = useRef(prefill);
  useLayoutEffect(() => {
    prefillRef.current = prefill;
  });
  useEffect(() => {
    if (!editing) return;
    let cancelled = false;
    fetchSavedProfile()
      .then((p) => {
        if (!cancelled) prefillRef.current(p);
      })
      .catch((err: Error) => {
        if (!cancelled) setError(`Could not load your profile: ${err.message}`);
      })
      .finally(() => {
        if (!cancelled) setLoading(false);
      });
    return () => {
      cancelled = true;
    };
  }, [editing]);
  return { editing, loading, error };
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
