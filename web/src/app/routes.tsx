import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** One row of the spec's route table: each page's code loads only when visited. */
export interface RouteDef {
  path: string;
  page: LazyExoticComponent<ComponentType>;
}

const HomePage = lazy(() => import('../features/public/HomePage'));
const IndexPage = lazy(() => import('../features/public/IndexPage'));
const ContactPage = lazy(() => import('../features/contact/ContactPage'));
const MensPage = lazy(() => import('../features/public/MensPage'));
const WomensPage = lazy(() => import('../features/public/WomensPage'));
const AboutPage = lazy(() => import('../features/public/AboutPage'));
const ImpactPage = lazy(() => import('../features/public/ImpactPage'));
const PrivacyPage = lazy(() => import('../features/public/PrivacyPage'));
const TermsPage = lazy(() => import('../features/public/TermsPage'));
const SignInPage = lazy(() => import('../features/auth/SignInPage'));
const ResetPasswordPage = lazy(() => import('../features/auth/ResetPasswordPage'));
const SecurityPage = lazy(() => import('../features/auth/SecurityPage'));
const SelectRolePage = lazy(() => import('../features/auth/SelectRolePage'));
const SellerSignupPage = lazy(() => import('../features/onboarding/SellerSignupPage'));
const BuyerSignupPage = lazy(() => import('../features/onboarding/BuyerSignupPage'));
const BuyerAndSellerSignupPage = lazy(() => import('../features/onboarding/BuyerAndSellerSignupPage'));
const OnboardingProfilePage = lazy(() => import('../features/onboarding/OnboardingProfilePage'));
const WardrobeClearancePage = lazy(() => import('../features/waitlist/WardrobeClearancePage'));
const ThanksPage = lazy(() => import('../features/public/ThanksPage'));
const ComingSoonPage = lazy(() => import('../features/public/ComingSoonPage'));
const AccountPage = lazy(() => import('../features/account/AccountPage'));
const ProveEmailPage = lazy(() => import('../features/account/ProveEmailPage'));
const NotFoundPage = lazy(() => import('../features/public/NotFoundPage'));
const AdminApp = lazy(() => import('../features/admin/AdminApp'));

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
