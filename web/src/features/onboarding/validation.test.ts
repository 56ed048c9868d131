import { describe, expect, it } from 'vitest';
import cases from '../../../../testdata/validation-cases.json';
import { formFields } from './flows';
import { profilePayload, sellerPayload } from './payloads';
import {
  normalisePhone,
  parseAge,
  validateBuyer,
  validateBuyerAndSeller,
  validateSeller,
  type BuyerAndSellerFields,
} from './validation';
import { zambianPhone } from '../../lib/validation';

/** One case of testdata/validation-cases.json: an onboarding payload (plus terms) and the server's errors. */
interface Case {
  name: string;
  input: Record<string, unknown>;
  errors: Record<string, string>;
}

/** The form fields a person would have filled to send the case's payload. */
function formOf(input: Record<string, unknown>): BuyerAndSellerFields {
  const str = (k: string) => (typeof input[k] === 'string' ? (input[k] as string) : '');
  return {
    full_name: str('full_name'),
    location: str('location'),
    age: input.age === null || input.age === undefined ? '' : String(input.age),
    phone_number: str('phone_number'),
    gender: str('gender'),
    height: str('height'),
    waist_size: str('waist_size'),
    user_description: str('style_description'),
    clothing_aesthetics: (input.clothing_aesthetics as string[] | undefined) ?? [],
    inspiration: str('inspiration'),
    wants_clearance_program: Boolean(input.wants_clearance_program),
    terms: Boolean(input.terms),
    parental_consent: Boolean(input.parental_consent),
    business_name: str('business_name'),
    registration_number: str('registration_number'),
    business_mode: str('business_mode'),
  };
}

/**
 * The server's errors the form can also find, under the form's field names.
 * Only the server can check the account (userId, role) and that an image URL
 * is an upload of the caller's own: the form makes those itself.
 */
function clientVisible(errors: Record<string, string>): Record<string, string> {
  const out = formFields(errors);
  for (const key of ['userId', 'role']) delete out[key];
  for (const [key, message] of Object.entries(out)) {
    if (message.startsWith('Each ') || message.startsWith('The profile picture')) delete out[key];
  }
  return out;
}

const table = cases as unknown as Record<string, Case[]>;
const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);
const defined = (errors: object) => Object.fromEntries(Object.entries(errors).filter(([, v]) => v));

describe('the shared validation cases', () => {
  it('has cases for each onboarding form', () => {
    for (const form of ['onboarding_profile', 'seller', 'buyer_and_seller']) {
      expect(table[form].length, form).toBeGreaterThan(3);
    }
  });

  it.each(table.onboarding_profile.map((c) => [c.name, c] as const))('profile: %s', (_name, c) => {
    expect(defined(validateBuyer(formOf(c.input), count(c.input.body_photo_urls)))).toEqual(clientVisible(c.errors));
  });

  it.each(table.seller.map((c) => [c.name, c] as const))('seller: %s', (_name, c) => {
    expect(defined(validateSeller(formOf(c.input), count(c.input.logo_urls)))).toEqual(clientVisible(c.errors));
  });

  it.each(table.buyer_and_seller.map((c) => [c.name, c] as const))('buyer and seller: %s', (_name, c) => {
    const got = validateBuyerAndSeller(formOf(c.input), count(c.input.logo_urls), count(c.input.body_photo_urls));
    expect(defined(got)).toEqual(clientVisible(c.errors));
  });
});

describe('phone numbers', () => {
  it.each([
    ['971234567', '+260971234567'],
    ['0971234567', '+260971234567'],
    ['097 123 4567', '+260971234567'],
    ['+260 97 123 4567', '+260971234567'],
    ['260-96-123-4567', '+260961234567'],
    ['(0211) 123 456', '+260211123456'],
    ['0571234567', '+260571234567'],
  ])('reads %s as %s', (typed, want) => {
    expect(zambianPhone(typed)).toBe(want);
    expect(normalisePhone(typed)).toBe(want);
  });

  it.each(['0111234567', '+27 82 123 4567', '97123456', '9712345678', '97l234567', ''])('refuses %s', (typed) => {
    expect(zambianPhone(typed)).toBeNull();
  });
});

describe('ages', () => {
  it('parses base 10 whole numbers only', () => {
    expect(parseAge(' 027 ')).toBe(27);
    expect(parseAge('24.5')).toBeNull();
    expect(parseAge('1e2')).toBeNull();
    expect(parseAge('')).toBeNull();
  });
});

describe('payloads', () => {
  const form = formOf(table.buyer_and_seller[0].input);

  it('builds the profile payload of spec call 9', () => {
    const p = profilePayload('u1', 'buyer', { ...form, full_name: '  Chipo ', age: '024' }, ['https://x/a.jpg', 'https://x/b.jpg']);
    expect(p).toMatchObject({ userId: 'u1', role: 'buyer', full_name: 'Chipo', age: 24, phone_number: '+260971234567' });
    expect(p.profile_pic_url).toBe('https://x/a.jpg');
    expect(profilePayload('u1', 'buyer', form, []).profile_pic_url).toBeNull();
    expect(p).toMatchObject({ terms: true, parental_consent: false });
  });

  it('builds the seller payload of spec call 10, a blank registration number as null', () => {
    expect(sellerPayload('u1', 'seller', { ...form, registration_number: '  ' }, []).registration_number).toBeNull();
    expect(sellerPayload('u1', 'seller', { ...form, registration_number: ' PACRA 1 ' }, []).registration_number).toBe('PACRA 1');
  });
});
