import { useSiteSettings } from '../lib/siteSettings';

/**
 * The support e-mail address of the site settings (/settings.json: the one
 * an operator set, else SALAULA_SUPPORT_EMAIL); the default until it arrives.
 */
export function useSupportEmail(): string {
  return useSiteSettings().supportEmail;
}
