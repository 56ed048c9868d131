import { matchPath } from 'react-router';
import { hasSupabaseClient, mayHaveSession } from '../lib/supabase';
import { lazyPage, type LazyPage } from './lazyPage';

/** One row of the spec's route table: each page's code loads only when visited. */
export interface RouteDef {
  path: string;
  page: LazyPage;
  /**
   * For signed-in people only: a browser that holds no session is sent to
   * sign-in before the page's code is even fetched (SignedInOnly), and the
   * start script preloads the sign-in page instead.
   */
  signedIn?: true;
}

const HomePage = lazyPage(() => import('../features/public/HomePage'));
const IndexPage = lazyPage(() => import('../features/public/IndexPage'));
const ContactPage = lazyPage(() => import('../features/contact/ContactPage'));
const MensPage = lazyPage(() => import('../features/public/MensPage'));
const WomensPage = lazyPage(() => import('../features/public/WomensPage'));
const AboutPage = lazyPage(() => import('../features/public/AboutPage'));
const ImpactPage = lazyPage(() => import('../features/public/ImpactPage'));
const PrivacyPage = lazyPage(() => import('../features/public/PrivacyPage'));
const TermsPage = lazyPage(() => import('../features/public/TermsPage'));
const SignInPage = lazyPage(() => import('../features/auth/SignInPage'));
const ResetPasswordPage = lazyPage(() => import('../features/auth/ResetPasswordPage'));
const SecurityPage = lazyPage(() => import('../features/auth/SecurityPage'));
const SelectRolePage = lazyPage(() => import('../features/auth/SelectRolePage'));
const SellerSignupPage = lazyPage(() => import('../features/onboarding/SellerSignupPage'));
const BuyerSignupPage = lazyPage(() => import('../features/onboarding/BuyerSignupPage'));
const BuyerAndSellerSignupPage = lazyPage(() => import('../features/onboarding/BuyerAndSellerSignupPage'));
const OnboardingProfilePage = lazyPage(() => import('../features/onboarding/OnboardingProfilePage'));
const WardrobeClearancePage = lazyPage(() => import('../features/waitlist/WardrobeClearancePage'));
const ThanksPage = lazyPage(() => import('../features/public/ThanksPage'));
const ComingSoonPage = lazyPage(() => import('../features/public/ComingSoonPage'));
const AccountPage = lazyPage(() => import('../features/account/AccountPage'));
const ProveEmailPage = lazyPage(() => import('../features/account/ProveEmailPage'));
const NotFoundPage = lazyPage(() => import('../features/public/NotFoundPage'));
const AdminApp = lazyPage(() => import('../features/admin/AdminApp'));

/** The spec's route table (section 2), plus the reset-password, onboarding-profile and account pages. */
export const ROUTES: RouteDef[] = [
  { path: '/', page: HomePage },
  { path: '/index', page: IndexPage, signedIn: true },
  { path: '/contact', page: ContactPage },
  { path: '/mens', page: MensPage },
  { path: '/womens', page: WomensPage },
  { path: '/about', page: AboutPage },
  { path: '/impact', page: ImpactPage },
  { path: '/privacy', page: PrivacyPage },
  { path: '/termsandconditions', page: TermsPage },
  { path: '/sign_up', page: SignInPage },
  { path: '/reset_password', page: ResetPasswordPage },
  { path: '/account/security', page: SecurityPage, signedIn: true },
  { path: '/select_role', page: SelectRolePage, signedIn: true },
  { path: '/sellersignup', page: SellerSignupPage, signedIn: true },
  { path: '/buyersignup', page: BuyerSignupPage, signedIn: true },
  { path: '/buyerandsellersignup', page: BuyerAndSellerSignupPage, signedIn: true },
  { path: '/onboarding', page: OnboardingProfilePage, signedIn: true },
  { path: '/wardrobeclearance', page: WardrobeClearancePage },
  { path: '/thanks', page: ThanksPage },
  { path: '/comingsoon', page: ComingSoonPage },
  { path: '/help', page: ComingSoonPage },
  { path: '/tracking', page: ComingSoonPage },
  { path: '/categories', page: ComingSoonPage },
  { path: '/account', page: AccountPage, signedIn: true },
  { path: '/account/prove_email', page: ProveEmailPage, signedIn: true },
  { path: '/404', page: NotFoundPage },
  { path: '/admin/*', page: AdminApp, signedIn: true }, // the founders' console, its own chunk
];

/** The sign-in page, where a signed-in-only page sends a browser without a session. */
export const SIGN_IN_PATH = '/sign_up';

/**
 * preloadRoute loads the code of the page at pathname (nothing for an
 * unknown path): for a signed-in-only page in a browser with no session,
 * the sign-in page's, where that visitor is sent.
 */
export function preloadRoute(pathname: string): Promise<unknown> {
  let route = ROUTES.find((r) => matchPath(r.path, pathname));
  if (route?.signedIn && !maySignIn()) route = ROUTES.find((r) => r.path === SIGN_IN_PATH);
  return route ? route.page.preload() : Promise.resolve();
}

/**
 * maySignIn tells whether this browser may be signed in (a session kept, or
 * arriving in the address, or a client made this visit): when it is not, a
 * signed-in-only page needs no code of its own.
 */
export function maySignIn(): boolean {
  return hasSupabaseClient() || mayHaveSession();
}
