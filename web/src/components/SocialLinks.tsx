import type { MouseEvent } from 'react';
import Box from '@mui/material/Box';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import FacebookIcon from '@mui/icons-material/Facebook';
import InstagramIcon from '@mui/icons-material/Instagram';
import XIcon from '@mui/icons-material/X';
import LinkedInIcon from '@mui/icons-material/LinkedIn';
import YouTubeIcon from '@mui/icons-material/YouTube';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import { SOCIAL_POPUP_CLOSE_MS, type SocialLink } from '../config/constants';
import { socialLinks, useSiteSettings } from '../lib/siteSettings';

const ICONS: Record<SocialLink['name'], (p: SvgIconProps) => React.ReactNode> = {
  Facebook: FacebookIcon,
  Instagram: InstagramIcon,
  X: XIcon,
  LinkedIn: LinkedInIcon,
  YouTube: YouTubeIcon,
  WhatsApp: WhatsAppIcon,
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
  const color = light ? '#ffffff' : 'primary.main';
  const itemSx = {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: 44,
    height: 44,
    borderRadius: '50%',
    color,
    border: '2px solid',
    borderColor: light ? 'rgba(255,255,255,0.6)' : 'rgba(27,67,50,0.35)',
  } as const;
  return (
    <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', p: 0, m: 0 }}>
      {links.map(({ name, href, temporaryWindow }) => {
        const Icon = ICONS[name];
        if (href === '#') {
          return (
            <li key={name}>
              <Box component="span" role="img" aria-label={`${name} (coming soon)`} title={`${name}: coming soon`} sx={{ ...itemSx, opacity: 0.75, borderStyle: 'dashed' }}>
                <Icon fontSize="small" />
              </Box>
            </li>
          );
        }
        return (
          <li key={name}>
            <Box
              component="a"
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`Salaula on ${name} (opens in a new tab)`}
              onClick={temporaryWindow ? (e: MouseEvent<HTMLAnchorElement>) => onTemporaryClick(e, href) : undefined}
              sx={{ ...itemSx, '&:hover': { bgcolor: light ? 'rgba(255,255,255,0.15)' : 'rgba(27,67,50,0.08)' } }}
            >
              <Icon fontSize="small" />
            </Box>
          </li>
        );
      })}
    </Box>
  );
}
