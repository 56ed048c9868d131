/**
 * The onboarding payloads the server receives (spec section 3), built from
 * the forms' fields: text trimmed, age parsed base 10, phone in +260 form.
 */
import { ROLES } from '../../config/constants';
import { isMinor, normalisePhone, parseAge, type BuyerFields, type PersonFields, type SellerFields } from './validation';

/** A profile role. */
export type Role = (typeof ROLES)[keyof typeof ROLES];

/** roleFrom reads the ?role= query value; anything unknown gives the fallback. */
export function roleFrom(value: string | null, fallback: Role): Role {
  return (Object.values(ROLES) as string[]).includes(value ?? '') ? (value as Role) : fallback;
}

/** Spec call 9: the body of onboard-new-user. */
export interface ProfilePayload {
  userId: string;
  role: Role;
  full_name: string;
  location: string;
  age: number;
  phone_number: string;
  gender: string;
  height: string;
  waist_size: string;
  style_description: string;
  clothing_aesthetics: string[];
  inspiration: string;
  wants_clearance_program: boolean;
  body_photo_urls: string[];
  profile_pic_url: string | null;
  /** The Terms box and a parent's consent: the server keeps them as consent records. */
  terms: boolean;
  parental_consent: boolean;
}

/** Spec call 10: the body of onboard-seller. */
export interface SellerPayload {
  userId: string;
  role: Role;
  full_name: string;
  location: string;
  age: number;
  phone_number: string;
  gender: string;
  business_name: string;
  registration_number: string | null;
  business_mode: string;
  logo_urls: string[];
  terms: boolean;
  parental_consent: boolean;
}

function person(f: PersonFields) {
  return {
    full_name: f.full_name.trim(),
    location: f.location.trim(),
    age: parseAge(f.age) ?? Number.NaN,
    phone_number: normalisePhone(f.phone_number),
    gender: f.gender,
    parental_consent: f.parental_consent && isMinor(f.age),
  };
}

/** profilePayload builds the onboard-new-user body; the first photo is the profile picture. */
export function profilePayload(userId: string, role: Role, f: BuyerFields, photoUrls: string[]): ProfilePayload {
  return {
    userId,
    role,
    ...person(f),
    height: f.height.trim(),
    waist_size: f.waist_size.trim(),
    style_description: f.user_description.trim(),
    clothing_aesthetics: [...f.clothing_aesthetics],
    inspiration: f.inspiration,
    wants_clearance_program: f.wants_clearance_program,
    body_photo_urls: photoUrls,
    profile_pic_url: photoUrls[0] ?? null,
    terms: f.terms,
  };
}

/** sellerPayload builds the onboard-seller body; a blank registration number is null. */
export function sellerPayload(userId: string, role: Role, f: SellerFields, logoUrls: string[]): SellerPayload {
  const registration = f.registration_number.trim();
  return {
    userId,
    role,
    ...person(f),
    business_name: f.business_name.trim(),
    registration_number: registration === '' ? null : registration,
    business_mode: f.business_mode,
    logo_urls: logoUrls,
    terms: f.terms,
  };
}
