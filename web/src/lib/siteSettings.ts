import { useEffect, useState } from 'react';
import { loadConfig } from './supabase';
import { CONTACT_ADDRESS, DEFAULT_SUPPORT_EMAIL, SOCIAL_LINKS, type SocialLink } from '../config/constants';

/** A phone number as the server gives it: canonical, local format, and the link. */
export interface SiteNumber {
  e164: string;
  display: string;
  link: string;
}

/** The site settings the founders set (GET /settings.json, internal/settings on the server). */
export interface SiteSettings {
  supportEmail: string;
  phone: SiteNumber;
  whatsapp: SiteNumber;
  address: string;
  social: { network: string; url?: string; comingSoon?: boolean }[];
  /** Name, role, text and an uploaded portrait ('' = the drawn one) of the two team members. */
  team: { name: string; role: string; text: string; portrait: string }[];
}

/** What the pages show until the settings arrive (and if they cannot be read): the shipped defaults. */
export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  supportEmail: DEFAULT_SUPPORT_EMAIL,
  // Not set until the founders set them: not shown.
  phone: { e164: '', display: '', link: '' },
  whatsapp: { e164: '', display: '', link: '' },
  address: CONTACT_ADDRESS,
  social: SOCIAL_LINKS.map((l) => (l.href === '#' ? { network: l.name.toLowerCase(), comingSoon: true } : { network: l.name.toLowerCase(), url: l.href })),
  team: [],
};

let settingsPromise: Promise<SiteSettings> | undefined;

/**
 * loadSiteSettings fetches /settings.json once per page load. The server
 * marks it no-cache and the service worker goes to the network first, so
 * a change the founders make shows on the next visit, without a rebuild.
 */
export function loadSiteSettings(): Promise<SiteSettings> {
  settingsPromise ??= fetch('/settings.json', { headers: { Accept: 'application/json' }, cache: 'no-cache' })
    .then((res) => {
      if (!res.ok) throw new Error(`Could not load the site settings (status ${res.status})`);
      return res.json() as Promise<SiteSettings>;
    })
    .catch((err) => {
      settingsPromise = undefined; // try again next time
      throw err;
    });
  return settingsPromise;
}

/** setSiteSettingsForTests makes loadSiteSettings answer s (undefined: fetch again). */
export function setSiteSettingsForTests(s: SiteSettings | undefined) {
  settingsPromise = s ? Promise.resolve(s) : undefined;
}

/** useSiteSettings gives the site settings: the defaults until they load or when they cannot be read. */
export function useSiteSettings(): SiteSettings {
  const [settings, setSettings] = useState(DEFAULT_SITE_SETTINGS);
  useEffect(() => {
    let live = true;
    loadSiteSettings()
      .then((s) => live && setSettings(s))
      // Without the settings, the defaults, with the server's support e-mail when /config.json has it.
      .catch(() => loadConfig().then((cfg) => live && cfg.supportEmail && setSettings((s) => ({ ...s, supportEmail: cfg.supportEmail }))))
      .catch(() => {}); // the page works with the defaults
    return () => {
      live = false;
    };
  }, []);
  return settings;
}

const NAMES: Record<string, SocialLink['name']> = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  x: 'X',
  linkedin: 'LinkedIn',
  youtube: 'YouTube',
  whatsapp: 'WhatsApp',
};

/** socialLinks turns the settings' social accounts into the social block's links (hidden ones are absent). */
export function socialLinks(s: SiteSettings): SocialLink[] {
  return s.social
    .filter((a) => NAMES[a.network])
    .map((a) => ({ name: NAMES[a.network], href: a.comingSoon || !a.url ? '#' : a.url, temporaryWindow: a.network === 'whatsapp' || undefined }));
}
