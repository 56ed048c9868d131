import { PillLink } from './PublicPage';
import { Link as RouterLink, useLocation, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../lib/documentTitle';
import { Logo } from '../../components/Logo';
import { FloatingImage } from './FloatingImage';
import '../../styles/pages.css';

/** The part of Salaula each path of the page stands for, named in the tab's title. */
const TITLES: Record<string, string> = { '/help': 'Help', '/tracking': 'Order tracking', '/categories': 'Categories' };

/**
 * The coming-soon page (/comingsoon, /help, /tracking, /categories): logo and
 * a floating image. A search sends people here with ?q=, so their words are
 * echoed back.
 */
export default function ComingSoonPage() {
  const [params] = useSearchParams();
  const q = params.get('q')?.trim();
  const part = TITLES[useLocation().pathname];
  useDocumentTitle(part ? `${part}: coming soon` : 'Coming soon');
  return (
    <main id="main" className="solo solo-soon">
      <div className="solo-in">
        <RouterLink to="/" aria-label="Salaula home" className="solo-logo">
          <Logo size={44} />
        </RouterLink>
        <div style={{ marginBottom: 16 }}>
          <FloatingImage />
        </div>
        <h1 className="solo-h1">Coming Soon</h1>
        {q ? (
          <p className="solo-p">
            Searching for <strong>&ldquo;{q}&rdquo;</strong>? Our rails are still being filled. Sign up and we will
            let you know the moment the shop opens.
          </p>
        ) : (
          <p className="solo-p">
            We are still stitching this part of Salaula together. Sign up and you will be the first to know when it
            is ready.
          </p>
        )}
        <div className="solo-actions">
          <PillLink to="/sign_up">SIGN UP NOW</PillLink>
          <PillLink to="/" look="outline">RETURN TO HOME</PillLink>
        </div>
      </div>
    </main>
  );
}
