/**
 * Client validation of the onboarding forms: the spec's rules and messages
 * (section 5), plus the server's extra rules (a whole-number age in range, a
 * Zambian phone number) with the server's own messages, so a person sees the
 * same answer before and after sending. testdata/validation-cases.json
 * drives the tests of both sides.
 */
import { isBlank, type FieldErrors } from '../../lib/validation';
import { PHONE_PREFIX } from '../../config/constants';

/** The spec's messages, word for word, plus the server's range and format messages. */
export const MESSAGES = {
  fullName: 'Full name is required',
  location: 'Location is required',
  age: 'Age is required',
  ageWhole: 'Age must be a whole number',
  ageRange: 'Age must be between 13 and 120',
  phone: 'Phone number is required',
  phoneFormat: 'Please enter a valid Zambian phone number',
  description: 'Description is required',
  height: 'Height is required',
  waist: 'Waist size is required',
  gender: 'Gender is required',
  sellerGender: 'Please select your gender',
  aesthetics: 'Please select at least one clothing aesthetic',
  terms: 'You must accept the Terms and Conditions',
  businessName: 'Business name is required',
  businessMode: 'Please select your business mode',
  logos: 'Please upload at least one logo or brand image',
} as const;

/** Youngest and oldest age the server accepts. */
export const AGE_MIN = 13;
export const AGE_MAX = 120;

/** The person's details every onboarding form asks for. */
export interface PersonFields {
  full_name: string;
  location: string;
  /** As typed; parsed base 10 on submit. */
  age: string;
  /** The digits after the fixed +260 prefix, as typed. */
  phone_number: string;
  gender: string;
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
 * parseAge reads an age the way the spec does (base 10, whole number):
 * null when it is not a whole number.
 */
export function parseAge(value: string): number | null {
  const v = value.trim();
  if (!/^\d{1,3}$/.test(v)) return null;
  return Number.parseInt(v, 10);
}

/**
 * normalisePhone turns what a person typed after the +260 prefix into the
 * international form the server stores: '097 123 4567', '0971234567',
 * '971234567' and '+260971234567' all become '+260971234567'. Anything
 * else is returned with the prefix, for the server to refuse.
 */
export function normalisePhone(typed: string): string {
  let digits = typed.replace(/[\s\-().]/g, '');
  if (digits.startsWith('+')) digits = digits.slice(1);
  if (digits.startsWith('260') && digits.length === 12) digits = digits.slice(3);
  if (digits.startsWith('0') && digits.length === 10) digits = digits.slice(1);
  return PHONE_PREFIX + digits;
}

/** ZAMBIAN_PHONE: +260 and nine digits of a mobile (7x, 9x) or fixed (21x) number. */
export const ZAMBIAN_PHONE = /^\+260(?:7[4-9]|9[5-7]|21)\d{7}$/;

/** Checks the person's details; seller forms word the gender message differently. */
function validatePerson(f: PersonFields, genderMessage: string): FieldErrors<keyof PersonFields> {
  const errors: FieldErrors<keyof PersonFields> = {};
  if (isBlank(f.full_name)) errors.full_name = MESSAGES.fullName;
  if (isBlank(f.location)) errors.location = MESSAGES.location;
  if (isBlank(f.age)) errors.age = MESSAGES.age;
  else {
    const age = parseAge(f.age);
    if (age === null) errors.age = MESSAGES.ageWhole;
    else if (age < AGE_MIN || age > AGE_MAX) errors.age = MESSAGES.ageRange;
  }
  if (isBlank(f.phone_number)) errors.phone_number = MESSAGES.phone;
  else if (!ZAMBIAN_PHONE.test(normalisePhone(f.phone_number))) errors.phone_number = MESSAGES.phoneFormat;
  if (isBlank(f.gender)) errors.gender = genderMessage;
  return errors;
}

/** validateBuyer: the onboarding profile rules (spec section 5), also used by /buyersignup. */
export function validateBuyer(f: BuyerFields): FieldErrors<BuyerErrorKey> {
  const errors: FieldErrors<BuyerErrorKey> = validatePerson(f, MESSAGES.gender);
  if (isBlank(f.user_description)) errors.user_description = MESSAGES.description;
  if (isBlank(f.height)) errors.height = MESSAGES.height;
  if (isBlank(f.waist_size)) errors.waist_size = MESSAGES.waist;
  if (f.clothing_aesthetics.length === 0) errors.clothing_aesthetics = MESSAGES.aesthetics;
  if (!f.terms) errors.terms = MESSAGES.terms;
  return errors;
}

/** validateSeller: the seller signup rules (spec section 5); logoCount is the number of picked images. */
export function validateSeller(f: SellerFields, logoCount: number): FieldErrors<SellerErrorKey> {
  const errors: FieldErrors<SellerErrorKey> = validatePerson(f, MESSAGES.sellerGender);
  if (isBlank(f.business_name)) errors.business_name = MESSAGES.businessName;
  if (isBlank(f.business_mode)) errors.business_mode = MESSAGES.businessMode;
  if (logoCount < 1) errors.logos = MESSAGES.logos;
  if (!f.terms) errors.terms = MESSAGES.terms;
  return errors;
}

/** validateBuyerAndSeller: both halves' rules on the combined form. */
export function validateBuyerAndSeller(f: BuyerAndSellerFields, logoCount: number): FieldErrors<BuyerAndSellerErrorKey> {
  return { ...validateSeller(f, logoCount), ...validateBuyer(f) };
}

/** True when a FieldErrors holds no message. */
export function hasErrors(errors: FieldErrors): boolean {
  return Object.values(errors).some(Boolean);
}
