import { Link as RouterLink, useNavigate } from 'react-router';
import { Dialog } from './ui/Dialog';
import { useOptionalAuth } from '../lib/auth';
import { ACCOUNT_PATH, AUTH_ROUTES } from '../config/constants';

/** The side menu's links, in the spec's order. */
export const SIDE_MENU_LINKS = [
  { label: 'Home Page', to: '/' },
  { label: 'Our Impact', to: '/impact' },
  { label: 'About Us', to: '/about' },
  { label: 'Privacy Policy', to: '/privacy' },
  { label: 'Terms & Conditions', to: '/termsandconditions' },
  { label: 'Sign In', to: AUTH_ROUTES.signIn },
  { label: 'Contact Us', to: '/contact' },
] as const;

export interface SideMenuProps {
  id: string;
  open: boolean;
  onClose: () => void;
}

/**
 * The side menu opened by the hamburger: the kit's Dialog as a drawer along
 * the left edge. A click outside it or Escape closes it; focus moves into it
 * when it opens and back to the hamburger when it closes. Loaded only when
 * first opened.
 */
export default function SideMenu({ id, open, onClose }: SideMenuProps) {
  const auth = useOptionalAuth();
  const signedIn = auth?.isAuthenticated ?? false;
  const navigate = useNavigate();
  // Signed in, the Sign In entry becomes My Account, followed by Sign Out.
  const links = SIDE_MENU_LINKS.map((l) => (signedIn && l.to === AUTH_ROUTES.signIn ? { label: 'My Account', to: ACCOUNT_PATH } : l));
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()} title="Menu" closeLabel="Close menu" side="left" id={id}>
      <nav aria-label="Side menu">
        <ul className="side-menu-list">
          {links.map((l) => (
            <li key={l.label}>
              <RouterLink to={l.to} onClick={onClose} className="side-menu-item">
                {l.label}
              </RouterLink>
            </li>
          ))}
          {signedIn && (
            <li>
              <button
                type="button"
                className="side-menu-item"
                onClick={async () => {
                  onClose();
                  await auth?.logout();
                  navigate('/');
                }}
              >
                Sign Out
              </button>
            </li>
          )}
        </ul>
      </nav>
    </Dialog>
  );
}
