import { matchPath } from 'react-router';
import { lazyPage, type LazyPage } from './lazyPage';

/** One row of the spec's route table: each page's code loads only when visited. */
export interface RouteDef {
  path: string;
  page: LazyPage;
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
  { path: '/index', page: IndexPage },
  { path: '/contact', page: ContactPage },
  { path: '/mens', page: MensPage },
  { path: '/womens', page: WomensPage },
  { path: '/about', page: AboutPage },
  { path: '/impact', page: ImpactPage },
  { path: '/privacy', page: PrivacyPage },
  { path: '/termsandconditions', page: TermsPage },
  { path: '/sign_up', page: SignInPage },
  { path: '/reset_password', page: ResetPasswordPage },
  { path: '/account/security', page: SecurityPage },
  { path: '/select_role', page: SelectRolePage },
  { path: '/sellersignup', page: SellerSignupPage },
  { path: '/buyersignup', page: BuyerSignupPage },
  { path: '/buyerandsellersignup', page: BuyerAndSellerSignupPage },
  { path: '/onboarding', page: OnboardingProfilePage },
  { path: '/wardrobeclearance', page: WardrobeClearancePage },
  { path: '/thanks', page: ThanksPage },
  { path: '/comingsoon', page: ComingSoonPage },
  { path: '/help', page: ComingSoonPage },
  { path: '/tracking', page: ComingSoonPage },
  { path: '/categories', page: ComingSoonPage },
  { path: '/account', page: AccountPage },
  { path: '/account/prove_email', page: ProveEmailPage },
  { path: '/404', page: NotFoundPage },
  { path: '/admin/*', page: AdminApp }, // the founders' console, its own chunk
];

/** preloadRoute loads the code of the page at pathname (nothing for an unknown path). */
export function preloadRoute(pathname: string): Promise<unknown> {
  const route = ROUTES.find((r) => matchPath(r.path, pathname));
  return route ? route.page.preload() : Promise.resolve();
}
