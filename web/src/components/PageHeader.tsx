import { Link as RouterLink } from 'react-router';
import { Icon } from './icons';
import { Logo } from './Logo';
import { useDocumentTitle } from '../lib/documentTitle';
import { useAccountLink } from './useAccountLink';

/**
 * The shared sticky header of inner pages: logo to /, the page's title
 * centred (the page's h1), and on the right the two ways people most often
 * need from an inner page: support (/contact) and their account (useAccountLink).
 * Plain markup styled by styles/site.css (.pagehead).
 */
export function PageHeader({ title }: { title: string }) {
  const accountLink = useAccountLink();
  useDocumentTitle(title);
  return (
    <header className="pagehead">
      <div className="pagehead-in">
        <RouterLink to="/" aria-label="Salaula home" className="pagehead-home">
          <span className="wide-only">
            <Logo />
          </span>
          <span className="narrow-only">
            <Logo markOnly />
          </span>
        </RouterLink>
        <h1 className="pagehead-title">{title}</h1>
        <div className="pagehead-icons">
          <RouterLink to="/contact" aria-label="Contact support" className="icon-btn">
            <Icon name="support" />
          </RouterLink>
          <RouterLink to={accountLink} aria-label="Account" className="icon-btn">
            <Icon name="account" />
          </RouterLink>
        </div>
      </div>
    </header>
  );
}
