import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuIcon from '@mui/icons-material/Menu';
import SearchIcon from '@mui/icons-material/Search';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ShoppingCartIcon from '@mui/icons-material/ShoppingCartOutlined';
import ShoppingBagIcon from '@mui/icons-material/ShoppingBagOutlined';
import AccountIcon from '@mui/icons-material/AccountCircleOutlined';
import { useAccountLink } from './useAccountLink';
import { Link as RouterLink } from 'react-router';
import { CART_BADGE_COUNT } from '../config/constants';
import { Logo } from './Logo';
import { SearchBar } from './SearchBar';

// The Drawer and its modal machinery load on the first open, not with the page.
const loadSideMenu = () => import('./SideMenu');
const SideMenu = lazy(loadSideMenu);

const SIDE_MENU_ID = 'side-menu';

const barLinkSx = { color: 'inherit', fontWeight: 700, px: 1.25, minWidth: 0, whiteSpace: 'nowrap' } as const;

/** The thin top bar: full labels from 600 px up, the short ones below. */
function TopLinks() {
  return (
    <Box
      component="nav"
      aria-label="Top"
      sx={{ bgcolor: 'primary.main', color: 'primary.contrastText', px: { xs: 1, sm: 2 }, minHeight: 44, display: 'flex', alignItems: 'center' }}
    >
      <Box sx={{ display: { xs: 'none', sm: 'flex' }, alignItems: 'center', width: '100%', maxWidth: 1200, mx: 'auto' }}>
        <Button component={RouterLink} to="/contact" sx={barLinkSx}>Contact Us</Button>
        <Box sx={{ flex: 1, display: 'flex', justifyContent: 'center', gap: 1 }}>
          <Button component={RouterLink} to="/mens" sx={barLinkSx}>Men</Button>
          <Button component={RouterLink} to="/womens" sx={barLinkSx}>Women</Button>
        </Box>
        <Button component={RouterLink} to="/impact" sx={barLinkSx}>Impact</Button>
        <Button component={RouterLink} to="/sign_up" sx={barLinkSx}>Sign up</Button>
      </Box>
      <Box sx={{ display: { xs: 'flex', sm: 'none' }, alignItems: 'center', justifyContent: 'space-between', width: '100%' }}>
        <Button component={RouterLink} to="/contact" sx={barLinkSx}>Support</Button>
        <Button component={RouterLink} to="/impact" sx={barLinkSx}>Our Impact</Button>
        <Button component={RouterLink} to="/sign_up" sx={barLinkSx}>Sign up</Button>
      </Box>
    </Box>
  );
}

/**
 * The top navigation shown on / and /sign_up: the top bar of links, then the
 * main bar with the side-menu hamburger, the logo, search and the cart, bag
 * and account icons. On small screens search opens from an icon, with a back
 * arrow to close it; while open it hides the logo and the icons.
 */
export function TopNav() {
  const accountLink = useAccountLink();
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuLoaded, setMenuLoaded] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  const searchInput = useRef<HTMLInputElement>(null);
  const searchButton = useRef<HTMLButtonElement>(null);
  const wasSearchOpen = useRef(false);

  useEffect(() => {
    if (searchOpen) searchInput.current?.focus();
    else if (wasSearchOpen.current) searchButton.current?.focus();
    wasSearchOpen.current = searchOpen;
  }, [searchOpen]);

  function openMenu() {
    setMenuLoaded(true);
    setMenuOpen(true);
  }

  const hideWhileSearching = { display: { xs: searchOpen ? 'none' : 'inline-flex', sm: 'inline-flex' } };

  return (
    <Box component="header" sx={{ bgcolor: 'background.paper', position: 'relative', zIndex: 2 }}>
      <TopLinks />
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: { xs: 0.5, sm: 2 },
          px: { xs: 1, sm: 2 },
          minHeight: 64,
          maxWidth: 1200,
          mx: 'auto',
          borderBottom: '1px solid #e3ded5',
        }}
      >
        <IconButton
          aria-label="Open menu"
          aria-haspopup="dialog"
          aria-expanded={menuOpen}
          aria-controls={menuOpen ? SIDE_MENU_ID : undefined}
          onClick={openMenu}
          onPointerEnter={() => void loadSideMenu()}
          onFocus={() => void loadSideMenu()}
          sx={hideWhileSearching}
        >
          <MenuIcon />
        </IconButton>
        <Box
          component={RouterLink}
          to="/"
          aria-label="Salaula home"
          sx={{ ...hideWhileSearching, textDecoration: 'none', borderRadius: 1, mr: { sm: 1 } }}
        >
          <Logo />
        </Box>

        {/* Small screens: back arrow + search box while open. */}
        {searchOpen && (
          <Box sx={{ display: { xs: 'flex', sm: 'none' }, alignItems: 'center', flex: 1, gap: 0.5 }}>
            <IconButton aria-label="Close search" onClick={() => setSearchOpen(false)}>
              <ArrowBackIcon />
            </IconButton>
            <SearchBar inputRef={searchInput} onEscape={() => setSearchOpen(false)} onSearched={() => setSearchOpen(false)} />
          </Box>
        )}
        {/* From 600 px up: the box is always there. */}
        <Box sx={{ display: { xs: 'none', sm: 'flex' }, flex: 1, justifyContent: 'center' }}>
          <SearchBar />
        </Box>

        <Box sx={{ ...hideWhileSearching, alignItems: 'center', ml: 'auto', gap: { xs: 0, sm: 0.5 } }}>
          <IconButton
            ref={searchButton}
            aria-label="Open search"
            aria-expanded={searchOpen}
            onClick={() => setSearchOpen(true)}
            sx={{ display: { xs: 'inline-flex', sm: 'none' } }}
          >
            <SearchIcon />
          </IconButton>
          <IconButton component={RouterLink} to="/comingsoon" aria-label={`Cart, ${CART_BADGE_COUNT} items`}>
            <Box component="span" sx={{ position: 'relative', display: 'inline-flex' }}>
              <ShoppingCartIcon />
              <Box
                component="span"
                aria-hidden="true"
                data-testid="cart-badge"
                sx={{
                  position: 'absolute',
                  top: -6,
                  right: -8,
                  minWidth: 18,
                  height: 18,
                  px: 0.5,
                  borderRadius: 9,
                  bgcolor: 'secondary.main',
                  color: 'secondary.contrastText',
                  fontSize: 11,
                  fontWeight: 800,
                  lineHeight: '18px',
                  textAlign: 'center',
                }}
              >
                {CART_BADGE_COUNT}
              </Box>
            </Box>
          </IconButton>
          <IconButton component={RouterLink} to="/comingsoon" aria-label="Shopping bag">
            <ShoppingBagIcon />
          </IconButton>
          <IconButton component={RouterLink} to={accountLink} aria-label="Account">
            <AccountIcon />
          </IconButton>
        </Box>
      </Box>
      {menuLoaded && (
        <Suspense fallback={null}>
          <SideMenu id={SIDE_MENU_ID} open={menuOpen} onClose={() => setMenuOpen(false)} />
        </Suspense>
      )}
    </Box>
  );
}
