/**
 * The submit flows of the onboarding forms, with the spec's error messages
 * (section 8): the profile flow (onboarding profile screen and /buyersignup),
 * the seller flow (/sellersignup) and the combined flow
 * (/buyerandsellersignup), which runs both halves.
 */
import { FUNCTIONS } from '../../config/constants';
import { FunctionError, postFunction, readSession, UploadError, type SessionInfo } from './api';
import { profilePayload, sellerPayload, type Role } from './payloads';
import type { ImagePicker } from './useImagePicker';
import type { BuyerAndSellerFields, BuyerFields, SellerFields } from './validation';

/** SubmitError: a message for the banner, and per-field messages the server sent. */
export class SubmitError extends Error {
  readonly fields: Record<string, string>;
  constructor(message: string, fields: Record<string, string> = {}) {
    super(message);
    this.fields = fields;
  }
}

/** The spec's messages of the profile flow. */
export const PROFILE_ERRORS = {
  noSession: 'Could not get user session. Please log in again.',
  // The upload's own message is already in plain words ("This photo is too large: ...").
  upload: (reason: string) => reason,
  status: (status: number) => `Server responded with status ${status}`,
} as const;

/** The spec's messages of the seller flow. */
export const SELLER_ERRORS = {
  noSession: 'You must be logged in.',
  session: (message: string) => `Session error: ${message}`,
  upload: (message: string) => message,
  status: (status: number) => `Function returned a non-2xx status code: ${status}`,
  unexpected: 'An unexpected error occurred.',
} as const;

/** The server names a few fields differently from the forms. */
const SERVER_FIELD_NAMES: Record<string, string> = {
  style_description: 'user_description',
  body_photo_urls: 'images',
  profile_pic_url: 'images',
  logo_urls: 'logos',
};

/** formFields renames the server's per-field messages to the forms' field names. */
export function formFields(fields: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) out[SERVER_FIELD_NAMES[k] ?? k] = v;
  return out;
}

/** The wording of one flow. */
interface Wording {
  noSession: string;
  session: (message: string) => string;
  upload: (message: string) => string;
  status: (status: number) => string;
  unexpected: string;
}

const PROFILE_WORDING: Wording = {
  noSession: PROFILE_ERRORS.noSession,
  session: () => PROFILE_ERRORS.noSession,
  upload: PROFILE_ERRORS.upload,
  status: PROFILE_ERRORS.status,
  unexpected: SELLER_ERRORS.unexpected,
};

const SELLER_WORDING: Wording = SELLER_ERRORS;

/** Runs one step, turning its failures into a SubmitError in the flow's wording. */
async function step<T>(wording: Wording, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof SubmitError) throw err;
    if (err instanceof UploadError) throw new SubmitError(wording.upload(err.message));
    if (err instanceof FunctionError) {
      throw new SubmitError(err.failure.error ?? wording.status(err.failure.status), formFields(err.failure.fields));
    }
    console.error('Onboarding failed', err);
    throw new SubmitError(wording.unexpected);
  }
}

async function session(wording: Wording): Promise<SessionInfo> {
  const s = await step(wording, readSession);
  if (s.kind === 'error') throw new SubmitError(wording.session(s.message));
  if (s.kind === 'none') throw new SubmitError(wording.noSession);
  return s.session;
}

/**
 * submitProfile: wait for the photos still uploading (they started when
 * picked; a failed one stops the submit), read the session, then POST
 * onboard-new-user.
 */
export async function submitProfile(role: Role, fields: BuyerFields, photos: ImagePicker): Promise<void> {
  const urls = await step(PROFILE_WORDING, () => photos.uploaded('Photo'));
  const s = await session(PROFILE_WORDING);
  await step(PROFILE_WORDING, () =>
    postFunction(FUNCTIONS.onboardNewUser, profilePayload(s.userId, role, fields, urls), s.accessToken),
  );
}

/** submitSeller: wait for the logos still uploading, read the session, then POST onboard-seller. */
export async function submitSeller(role: Role, fields: SellerFields, logos: ImagePicker): Promise<void> {
  const urls = await step(SELLER_WORDING, () => logos.uploaded('Logo'));
  const s = await session(SELLER_WORDING);
  await step(SELLER_WORDING, () =>
    postFunction(FUNCTIONS.onboardSeller, sellerPayload(s.userId, role, fields, urls), s.accessToken),
  );
}

/**
 * submitBuyerAndSeller: wait for the photos and logos still uploading, read
 * the session, then POST the buyer half to onboard-new-user and the seller
 * half to onboard-seller, both with role buyer_and_seller.
 */
export async function submitBuyerAndSeller(
  fields: BuyerAndSellerFields,
  photos: ImagePicker,
  logos: ImagePicker,
): Promise<void> {
  const role: Role = 'buyer_and_seller';
  const [logoUrls, photoUrls] = await step(SELLER_WORDING, () => Promise.all([logos.uploaded('Logo'), photos.uploaded('Photo')]));
  const s = await session(SELLER_WORDING);
  await step(SELLER_WORDING, () =>
    postFunction(FUNCTIONS.onboardNewUser, profilePayload(s.userId, role, fields, photoUrls), s.accessToken),
  );
  await step(SELLER_WORDING, () =>
    postFunction(FUNCTIONS.onboardSeller, sellerPayload(s.userId, role, fields, logoUrls), s.accessToken),
  );
}
