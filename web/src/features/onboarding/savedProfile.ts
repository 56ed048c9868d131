/**
 * A saved profile (get-profile-me, spec call 4) and how the onboarding forms
 * are prefilled from it when a person edits their profile from /account
 * (`?edit=1`): after a save the form goes back to /account.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { PHONE_PREFIX } from '../../config/constants';
import { fetchSavedProfile, type SavedProfile } from '../../lib/profile';
import { EMPTY_BUYER } from './components/OnboardingForm';
import type { BuyerFields, SellerFields } from './validation';

export { fetchSavedProfile, useFinishedProfileGoesToAccount, type FinishedProfileState, type SavedProfile } from '../../lib/profile';

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
