/**
 * Client validation of the onboarding forms: the spec's rules and messages
 * (section 5), plus the server's extra rules (a whole-number age in range, a
 * Zambian phone number) with the server's own messages, so a person sees the
 * same answer before and after sending. testdata/validation-cases.json
 * drives the tests of both sides.
 */
import { isBlank, zambianPhone, PHONE_FORMAT_MESSAGE, type FieldErrors } from '../../lib/validation';
import {
  BUSINESS_MODES,
  CLOTHING_AESTHETICS,
  INSPIRATIONS,
  MAX_PROFILE_IMAGES,
  MAX_SELLER_LOGOS,
  PHONE_PREFIX,
} from '../../config/constants';

/** The spec's messages, word for word, plus the server's own (internal/validate/onboarding.go). */
export const MESSAGES = {
  fullName: 'Full name is required',
  location: 'Location is required',
  age: 'Age is required',
  ageWhole: 'Please enter your age as a whole number',
  ageRange: 'Age must be between 13 and 120',
  phone: 'Phone number is required',
  phoneFormat: PHONE_FORMAT_MESSAGE,
  description: 'Description is required',
  height: 'Height is required',
  waist: 'Waist size is required',
  gender: 'Gender is required',
  genderList: 'Please select Male or Female',
  sellerGender: 'Please select your gender',
  aesthetics: 'Please select at least one clothing aesthetic',
  aestheticsList: 'Please choose clothing aesthetics from the list',
  inspirationList: 'Please choose an inspiration from the list',
  terms: 'You must accept the Terms and Conditions',
  businessName: 'Business name is required',
  businessMode: 'Please select your business mode',
  logos: 'Please upload at least one logo or brand image',
  tooManyPhotos: 'You can add at most 3 photos',
  tooManyLogos: 'You can add at most 2 logo or brand images',
  parentalConsent: 'If you are under 18, a parent or guardian must agree: please tick the parental consent box',
} as const;

/** Youngest and oldest age the server accepts. */
export const AGE_MIN = 13;
export const AGE_MAX = 120;
/** From this age no parent's consent is needed (the Terms: 18 or over, or parental consent). */
export const ADULT_AGE = 18;

/** Longest text the server keeps per field (characters), and its label in the message. */
export const MAX_LENGTHS = {
  full_name: [100, 'Full name'],
  location: [100, 'Location'],
  user_description: [2000, 'Style description'],
  height: [30, 'Height'],
  waist_size: [30, 'Waist size'],
  business_name: [120, 'Business name'],
  registration_number: [50, 'Registration number'],
} as const;

/** The person's details every onboarding form asks for. */
export interface PersonFields {
  full_name: string;
  location: string;
  /** As typed; parsed base 10 on submit. */
  age: string;
  /** The digits after the fixed +260 prefix, as typed. */
  phone_number: string;
  gender: string;
  /** A parent or guardian agreed (asked only of people under 18). */
  parental_consent: boolean;
}

/** The buyer half: body measures, description and taste. */
export interface BuyerFields extends PersonFields {
  height: string;
  waist_size: string;
  user_description: string;
  clothing_aesthetics: string[];
  inspiration: string;
  wants_clearance_program: boolean;
  terms: boolean;
}

/** The seller half: the business. */
export interface SellerFields extends PersonFields {
  business_name: string;
  registration_number: string;
  business_mode: string;
  terms: boolean;
}

/** The combined buyer-and-seller form. */
export type BuyerAndSellerFields = BuyerFields & SellerFields;

/** Field names that can carry an error on a buyer form. */
export type BuyerErrorKey = keyof BuyerFields | 'images';
/** Field names that can carry an error on a seller form. */
export type SellerErrorKey = keyof SellerFields | 'logos';
/** Field names that can carry an error on the combined form. */
export type BuyerAndSellerErrorKey = BuyerErrorKey | SellerErrorKey;

/**
 * parseAge reads an age the way the server does (a whole number, base 10):
 * null when it is not one.
 */
export function parseAge(value: string): number | null {
  const v = value.trim();
  if (!/^[+-]?\d{1,9}$/.test(v)) return null;
  return Number.parseInt(v, 10);
}

/**
 * normalisePhone is what the forms send: the +260 form when the number is
 * valid, else the digits as typed after the prefix (the server refuses it).
 */
export function normalisePhone(typed: string): string {
  return zambianPhone(typed) ?? PHONE_PREFIX + typed.trim();
}

/** Adds the server's too-long message for each text field over its limit. */
function checkLengths(errors: Record<string, string | undefined>, f: object) {
  for (const [field, [max, label]] of Object.entries(MAX_LENGTHS)) {
    const v = (f as Record<string, unknown>)[field];
    if (typeof v === 'string' && !errors[field] && [...v.trim()].length > max) {
      errors[field] = `${label} is too long (at most ${max} characters)`;
    }
  }
}

/** Checks the person's details (gender is checked per form). */
function validatePerson(f: PersonFields): FieldErrors<keyof PersonFields> {
  const errors: FieldErrors<keyof PersonFields> = {};
  if (isBlank(f.full_name)) errors.full_name = MESSAGES.fullName;
  if (isBlank(f.location)) errors.location = MESSAGES.location;
  if (isBlank(f.age)) errors.age = MESSAGES.age;
  else {
    const age = parseAge(f.age);
    if (age === null) errors.age = MESSAGES.ageWhole;
    else if (age < AGE_MIN || age > AGE_MAX) errors.age = MESSAGES.ageRange;
    else if (age < ADULT_AGE && !f.parental_consent) errors.parental_consent = MESSAGES.parentalConsent;
  }
  if (isBlank(f.phone_number)) errors.phone_number = MESSAGES.phone;
  else if (zambianPhone(f.phone_number) === null) errors.phone_number = MESSAGES.phoneFormat;
  return errors;
}

/** validateBuyer: the onboarding profile rules (spec section 5), also used by /buyersignup. */
export function validateBuyer(f: BuyerFields, photoCount = 0): FieldErrors<BuyerErrorKey> {
  const errors: FieldErrors<BuyerErrorKey> = validatePerson(f);
  if (isBlank(f.gender)) errors.gender = MESSAGES.gender;
  else if (!['male', 'female'].includes(f.gender.trim().toLowerCase())) errors.gender = MESSAGES.genderList;
  if (isBlank(f.user_description)) errors.user_description = MESSAGES.description;
  if (isBlank(f.height)) errors.height = MESSAGES.height;
  if (isBlank(f.waist_size)) errors.waist_size = MESSAGES.waist;
  checkLengths(errors, f);
  if (f.clothing_aesthetics.some((a) => !(CLOTHING_AESTHETICS as readonly string[]).includes(a))) {
    errors.clothing_aesthetics = MESSAGES.aestheticsList;
  } else if (f.clothing_aesthetics.length === 0) errors.clothing_aesthetics = MESSAGES.aesthetics;
  if (f.inspiration.trim() !== '' && !(INSPIRATIONS as readonly string[]).includes(f.inspiration.trim())) {
    errors.inspiration = MESSAGES.inspirationList;
  }
  if (photoCount > MAX_PROFILE_IMAGES) errors.images = MESSAGES.tooManyPhotos;
  if (!f.terms) errors.terms = MESSAGES.terms;
  return errors;
}

/** validateSeller: the seller signup rules (spec section 5); logoCount is the number of picked images. */
export function validateSeller(f: SellerFields, logoCount: number): FieldErrors<SellerErrorKey> {
  const errors: FieldErrors<SellerErrorKey> = validatePerson(f);
  if (!['male', 'female', 'other'].includes(f.gender.trim().toLowerCase())) errors.gender = MESSAGES.sellerGender;
  if (isBlank(f.business_name)) errors.business_name = MESSAGES.businessName;
  checkLengths(errors, f);
  if (!(BUSINESS_MODES as readonly string[]).includes(f.business_mode.trim())) errors.business_mode = MESSAGES.businessMode;
  if (logoCount < 1) errors.logos = MESSAGES.logos;
  else if (logoCount > MAX_SELLER_LOGOS) errors.logos = MESSAGES.tooManyLogos;
  if (!f.terms) errors.terms = MESSAGES.terms;
  return errors;
}

/**
 * validateBuyerAndSeller: both halves' rules on the combined form; where
 * both check a field, the buyer half's message wins (as on the server).
 */
export function validateBuyerAndSeller(
  f: BuyerAndSellerFields,
  logoCount: number,
  photoCount = 0,
): FieldErrors<BuyerAndSellerErrorKey> {
  return { ...validateSeller(f, logoCount), ...validateBuyer(f, photoCount) };
}

/** isMinor: the typed age is a valid age under 18, so the form asks for a parent's consent. */
export function isMinor(age: string): boolean {
  const n = parseAge(age);
  return n !== null && n >= AGE_MIN && n < ADULT_AGE;
}

/** True when a FieldErrors holds no message. */
export function hasErrors(errors: FieldErrors): boolean {
  return Object.values(errors).some(Boolean);
}
