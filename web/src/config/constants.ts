/**
 * The spec's business constants (section 9) and fixed lists (section 3), in
 * one place. The server keeps its own copy of the lists it validates in
 * internal/validate; the shared table testdata/validation-cases.json keeps
 * the two sides in step.
 */

/** Full-page skeleton shown on first load. */
export const FIRST_LOAD_SKELETON_MS = 1000;
/** Thin loading bar shown on every later path change. */
export const ROUTE_LOADING_BAR_MS = 300;
/** The page scrolls to the top at each of these delays after a path change. */
export const SCROLL_RESET_DELAYS_MS = [0, 50, 150, 500] as const;
/** A social link's temporary window closes itself after this long. */
export const SOCIAL_POPUP_CLOSE_MS = 100;
/** The cart badge is hard-coded until there is a cart. */
export const CART_BADGE_COUNT = 6;

/** Contact message minimum length, after trimming. */
export const CONTACT_MESSAGE_MIN_LENGTH = 10;
/** The one label of a profile's style description (style_description), in every form and on My account. */
export const STYLE_LABEL = 'Describe the clothes you like';
/** Zambian phone prefix, fixed in every phone field. */
export const PHONE_PREFIX = '+260';
/** Support e-mail; the server's /config.json may override it at run time. */
export const DEFAULT_SUPPORT_EMAIL = 'support@salaula.co.zm';
export const CONTACT_ADDRESS = 'New Kasama, Lusaka Zambia';

/** Upload limits. */
export const MAX_PROFILE_IMAGES = 3;
export const BUYER_PHOTOS = 3;
export const MAX_SELLER_LOGOS = 2;
export const STATIC_FORM_MAX_IMAGES = 3;
export const STORAGE_BUCKET = 'user-media';

/** The backend functions the app invokes. */
export const FUNCTIONS = {
  contactFormSubmit: 'contact-form-submit',
  waitlistSignup: 'waitlist-signup',
  getProfileMe: 'get-profile-me',
  onboardNewUser: 'onboard-new-user',
  onboardSeller: 'onboard-seller',
  accountExport: 'account-export',
  accountDelete: 'account-delete',
  accountAddress: 'account-address',
  accountProveEmail: 'account-prove-email',
  accountProveEmailVerify: 'account-prove-email-verify',
} as const;

/** The signed-in person's account page, and its two-step sign-in page. */
export const ACCOUNT_PATH = '/account';
export const ACCOUNT_SECURITY_PATH = '/account/security';
/** The page the e-mailed proof link opens (?token_hash=...): it proves the address on a button press. */
export const PROVE_EMAIL_PATH = '/account/prove_email';

/** Contact subjects: value sent to the server, label shown. */
export const CONTACT_SUBJECTS = [
  { value: 'investment Inquiry', label: 'Investment Inquiry' },
  { value: 'Unsolved issue', label: 'Unsolved Issue' },
  { value: 'careers', label: 'Careers' },
  { value: 'general Inquiry', label: 'General Inquiry' },
  { value: 'other', label: 'Other' },
] as const;

/** Waitlist programmes. */
export const PROGRAMS = {
  upcycling: 'Upcycling Initiative',
  wardrobeClearance: 'Wardrobe Clearance Program',
} as const;

/** The eight clothing aesthetics, by title. */
export const CLOTHING_AESTHETICS = [
  'SPORTS WEAR',
  'STREET WEAR',
  'SUMMER WEAR',
  'FORMAL WEAR',
  'WINTER & FALL',
  'RETRO OUTFITS',
  'DENIM WEAR',
  'MINIMALIST WEAR',
] as const;

/** The eight inspiration options. */
export const INSPIRATIONS = [
  'Urban Culture & Trends',
  'Pop Culture (Movies, Music)',
  'High Fashion & Runway Trends',
  'Celebrity and Influencer Trends',
  'Historical eras e.g. 90s',
  'DIY & Up-cycled fashion',
  'Gothic and Dark Academia',
  'Seasonal trends e.g winter',
] as const;

/** The four business modes of a seller. */
export const BUSINESS_MODES = ['Thrift Shop or Store', 'Social Media Sale', 'Street Vendor', 'None'] as const;

/** Profile roles. */
export const ROLES = { buyer: 'buyer', seller: 'seller', buyerAndSeller: 'buyer_and_seller' } as const;

/** Terms and Privacy. */
export const LEGAL_LAST_UPDATED = '11/09/2025';
export const TERMS_SECTION_COUNT = 11;
export const PRIVACY_SECTION_COUNT = 10;
export const MINIMUM_USER_AGE = 18;

/** Layout. */
export const SEARCH_MAX_WIDTH_PX = 600;
export const BREAKPOINTS = { xs: 0, sm: 600, md: 900, lg: 1200, xl: 1536 } as const;
export const SPACING_UNIT_PX = 8;

/** Paths that show the top navigation bar. */
export const TOP_NAV_PATHS = ['/', '/sign_up'] as const;

/** Upper bounds of the public forms (the server enforces the same, in characters). */
export const FORM_LIMITS = { name: 100, email: 254, phone: 30, message: 5000 } as const;

/** The hidden bot-trap field of the public forms: people never fill it. */
export const BOT_TRAP_FIELD = 'website';

/** Where the auth screens send people (spec sections 2 and 4), and the reset page the e-mailed link opens. */
export const AUTH_ROUTES = {
  signUp: '/sign_up',
  /** The same page opened in sign-in mode ('WELCOME BACK!'): where every "Sign in" leads. */
  signIn: '/sign_up?mode=login',
  resetPassword: '/reset_password',
  selectRole: '/select_role',
  thanks: '/thanks',
  index: '/index',
  sellerSignup: '/sellersignup?role=seller',
  buyerSignup: '/buyersignup?role=buyer',
} as const;

/** Public site. */
/** Background shown behind an image until it loads, and kept if it fails. */
export const IMAGE_PLACEHOLDER_BG = '#e9e4da';
/** Where a search goes while the shop is not open: the catalogue's coming-soon page, with ?q=. */
export const SEARCH_PATH = '/categories';

/** One entry of the social block. */
export interface SocialLink {
  /** Network or channel name, used in the link's label. */
  name: 'Facebook' | 'Instagram' | 'X' | 'LinkedIn' | 'YouTube' | 'WhatsApp';
  /** '#' marks an account that is not open yet (shown, not linked). */
  href: string;
  /** Opened through a temporary window that closes itself (see SOCIAL_POPUP_CLOSE_MS). */
  temporaryWindow?: boolean;
}

/** The social block's defaults (the site settings, /settings.json, replace them): five networks (YouTube coming soon); the WhatsApp channel shows once set. */
export const SOCIAL_LINKS: readonly SocialLink[] = [
  { name: 'Facebook', href: 'https://www.facebook.com/salaulazm' },
  { name: 'Instagram', href: 'https://www.instagram.com/salaulazm' },
  { name: 'X', href: 'https://x.com/salaulazm' },
  { name: 'LinkedIn', href: 'https://www.linkedin.com/company/salaulazm' },
  { name: 'YouTube', href: '#' },
];


/**
 * Realtime (spec sections 1, 7, 8, 9): heartbeat every 25 s, reconnect after
 * 1, 2, 5 then 10 s, and a join or push that gets no answer in 10 s times out.
 */
export const REALTIME = {
  heartbeatMs: 25_000,
  reconnectMs: [1_000, 2_000, 5_000, 10_000],
  timeoutMs: 10_000,
} as const;

/** How long a row that arrived live stays highlighted in the console. */
export const LIVE_HIGHLIGHT_MS = 4_000;
