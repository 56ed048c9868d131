import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useAuth } from '../features/auth/AuthProvider';
import { useSignedIn } from './useAccountLink';
import { MuiTheme } from '../app/MuiTheme';

/** The side menu's links, in the spec's order. */
export const SIDE_MENU_LINKS = [
  { label: 'Home Page', to: '/' },
  { label: 'Our Impact', to: '/impact' },
  { label: 'About Us', to: '/about' },
  { label: 'Privacy Policy', to: '/privacy' },
  { label: 'Terms & Conditions', to: '/termsandconditions' },
  { label: 'Sign In', to: '/sign_up' },
  { label: 'Contact Us', to: '/contact' },
] as const;

/** The look of one menu entry. */
const itemSx = {
  display: 'block',
  px: 2,
  py: 1.5,
  borderRadius: 2,
  color: 'text.primary',
  textDecoration: 'none',
  fontWeight: 600,
  '&:hover': { bgcolor: '#f3efe8' },
} as const;

/** useOptionalLogout: the auth hook's logout, or nothing outside an AuthProvider. */
function useOptionalLogout(): { logout: () => Promise<void> } {
  try {
    return useAuth();
  } catch {
    return { logout: async () => undefined };
  }
}

export interface SideMenuProps {
  id: string;
  open: boolean;
  onClose: () => void;
}

/**
 * The side menu opened by the hamburger. A click outside it or Escape closes
 * it; focus moves into it when it opens and back to the hamburger when it
 * closes (the Drawer's modal does both). Loaded only when first opened.
 */
export default function SideMenu({ id, open, onClose }: SideMenuProps) {
  const signedIn = useSignedIn();
  const { logout } = useOptionalLogout();
  const navigate = useNavigate();
  // Signed in, the Sign In entry becomes My Account, followed by Sign Out.
  const links = SIDE_MENU_LINKS.map((l) => (signedIn && l.to === '/sign_up' ? { label: 'My Account', to: '/account' } : l));
  return (
    <MuiTheme>
    <Drawer
      id={id}
      anchor="left"
      open={open}
      onClose={onClose}
      slotProps={{ paper: { 'aria-labelledby': `${id}-title`, role: 'dialog', sx: { width: 280, maxWidth: '85vw' } } as object }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1.5, borderBottom: '1px solid #e3ded5' }}>
        <Typography id={`${id}-title`} component="h2" sx={{ fontWeight: 800, fontSize: '1.1rem' }}>
          Menu
        </Typography>
        <IconButton aria-label="Close menu" onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Box>
      <Box component="nav" aria-label="Side menu">
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 1 }}>
          {links.map((l) => (
            <li key={l.label}>
              <Box
                component={RouterLink}
                to={l.to}
                onClick={onClose}
                sx={itemSx}
              >
                {l.label}
              </Box>
            </li>
          ))}
          {signedIn && (
            <li>
              <Box
                component="button"
                type="button"
                onClick={async () => {
                  onClose();
                  await logout();
                  navigate('/');
                }}
                sx={{ ...itemSx, width: '100%', textAlign: 'left', border: 0, bgcolor: 'transparent', font: 'inherit', cursor: 'pointer' }}
              >
                Sign Out
              </Box>
            </li>
          )}
        </Box>
      </Box>
    </Drawer>
    </MuiTheme>
  );
}
