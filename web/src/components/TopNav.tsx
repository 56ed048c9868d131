import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { CART_BADGE_COUNT } from '../config/constants';
import { Icon } from './icons';
import { Logo } from './Logo';
import { SearchBar } from './SearchBar';
import { useAccountLink, useSignedIn } from './useAccountLink';
import { ACCOUNT_PATH, AUTH_ROUTES } from '../config/constants';

// The Drawer and its modal machinery load on the first open, not with the page.
const loadSideMenu = () => import('./SideMenu');
const SideMenu = lazy(loadSideMenu);

const SIDE_MENU_ID = 'side-menu';

/**
 * The thin top bar: full labels from 600 px up, the short ones below
 * (styles/site.css, .toplinks). Its last link is "Sign up" for a visitor and
 * "My account" for someone signed in.
 */
function TopLinks() {
  const signedIn = useSignedIn();
  const account = signedIn ? (
    <RouterLink to={ACCOUNT_PATH} className="barlink">My account</RouterLink>
  ) : (
    <RouterLink to={AUTH_ROUTES.signUp} className="barlink">Sign up</RouterLink>
  );
  return (
    <nav aria-label="Top" className="toplinks">
      <div className="toplinks-wide">
        <RouterLink to="/contact" className="barlink">Contact Us</RouterLink>
        <div className="toplinks-wide-mid">
          <RouterLink to="/mens" className="barlink">Men</RouterLink>
          <RouterLink to="/womens" className="barlink">Women</RouterLink>
        </div>
        <RouterLink to="/impact" className="barlink">Impact</RouterLink>
        {account}
      </div>
      <div className="toplinks-narrow">
        <RouterLink to="/contact" className="barlink">Support</RouterLink>
        <RouterLink to="/impact" className="barlink">Our Impact</RouterLink>
        {account}
      </div>
    </nav>
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

  return (
    <header className={searchOpen ? 'topnav searching' : 'topnav'}>
      <TopLinks />
      <div className="mainbar">
        <button
          type="button"
          className="icon-btn hide-searching"
          aria-label="Open menu"
          aria-haspopup="dialog"
          aria-expanded={menuOpen}
          aria-controls={menuOpen ? SIDE_MENU_ID : undefined}
          onClick={openMenu}
          onPointerEnter={() => void loadSideMenu()}
          onFocus={() => void loadSideMenu()}
        >
          <Icon name="menu" />
        </button>
        <RouterLink to="/" aria-label="Salaula home" className="mainbar-home hide-searching">
          <Logo />
        </RouterLink>

        {/* Small screens: back arrow + search box while open. */}
        {searchOpen && (
          <div className="mainbar-search-narrow">
            <button type="button" className="icon-btn" aria-label="Close search" onClick={() => setSearchOpen(false)}>
              <Icon name="arrowBack" />
            </button>
            <SearchBar inputRef={searchInput} onEscape={() => setSearchOpen(false)} onSearched={() => setSearchOpen(false)} />
          </div>
        )}
        {/* From 600 px up: the box is always there. */}
        <div className="mainbar-search-wide">
          <SearchBar />
        </div>

        <div className="mainbar-icons hide-searching">
          <button
            type="button"
            ref={searchButton}
            className="icon-btn only-narrow"
            aria-label="Open search"
            aria-expanded={searchOpen}
            onClick={() => setSearchOpen(true)}
          >
            <Icon name="search" />
          </button>
          <RouterLink to="/comingsoon" aria-label={`Cart, ${CART_BADGE_COUNT} items`} className="icon-btn">
            <span className="cart">
              <Icon name="cart" />
              <span aria-hidden="true" data-testid="cart-badge" className="cart-badge">
                {CART_BADGE_COUNT}
              </span>
            </span>
          </RouterLink>
          <RouterLink to="/comingsoon" aria-label="Shopping bag" className="icon-btn">
            <Icon name="bag" />
          </RouterLink>
          <RouterLink to={accountLink} aria-label="Account" className="icon-btn">
            <Icon name="account" />
          </RouterLink>
        </div>
      </div>
      {menuLoaded && (
        <Suspense fallback={null}>
          <SideMenu id={SIDE_MENU_ID} open={menuOpen} onClose={() => setMenuOpen(false)} />
        </Suspense>
      )}
    </header>
  );
}
