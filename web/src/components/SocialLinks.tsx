import type { MouseEvent } from 'react';
import { SOCIAL_POPUP_CLOSE_MS, type SocialLink } from '../config/constants';
import { socialLinks, useSiteSettings } from '../lib/siteSettings';
import { Icon, type IconName } from './icons';

const ICONS: Record<SocialLink['name'], IconName> = {
  Facebook: 'facebook',
  Instagram: 'instagram',
  X: 'x',
  LinkedIn: 'linkedin',
  YouTube: 'youtube',
  WhatsApp: 'whatsapp',
};

/**
 * openThroughTemporaryWindow opens url in a new window that closes itself
 * after SOCIAL_POPUP_CLOSE_MS: on a phone the messaging link hands over to
 * the app at once, and the blank tab it leaves behind goes away. It returns
 * false (and does nothing) when the browser blocks the window, so the link's
 * own new tab opens instead.
 */
export function openThroughTemporaryWindow(url: string): boolean {
  const win = window.open('', '_blank');
  if (!win) return false;
  win.opener = null; // the new page cannot reach back into ours
  win.location.href = url;
  window.setTimeout(() => win.close(), SOCIAL_POPUP_CLOSE_MS);
  return true;
}

/** True on touch-first devices, where an app picks up the messaging link. */
function handsOverToApp(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
}

function onTemporaryClick(e: MouseEvent<HTMLAnchorElement>, url: string) {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || !handsOverToApp()) return;
  if (openThroughTemporaryWindow(url)) e.preventDefault();
}

/**
 * The social block: each network opens in a new tab (rel="noopener
 * noreferrer"); an account that is not open yet ('#') is shown as coming
 * soon rather than as a link that goes nowhere; a hidden one is left out.
 * The accounts are the site settings'. `only` picks some networks.
 */
export function SocialLinks({ light = false, only }: { light?: boolean; only?: SocialLink['name'][] }) {
  const all = socialLinks(useSiteSettings());
  const links = only ? all.filter((l) => only.includes(l.name)) : all;
  return (
    <ul className={light ? 'social social-light' : 'social'}>
      {links.map(({ name, href, temporaryWindow }) => {
        if (href === '#') {
          return (
            <li key={name}>
              <span role="img" aria-label={`${name} (coming soon)`} title={`${name}: coming soon`} className="social-item social-soon">
                <Icon name={ICONS[name]} small />
              </span>
            </li>
          );
        }
        return (
          <li key={name}>
            <a
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`Salaula on ${name} (opens in a new tab)`}
              onClick={temporaryWindow ? (e: MouseEvent<HTMLAnchorElement>) => onTemporaryClick(e, href) : undefined}
              className="social-item"
            >
              <Icon name={ICONS[name]} small />
            </a>
          </li>
        );
      })}
    </ul>
  );
}
