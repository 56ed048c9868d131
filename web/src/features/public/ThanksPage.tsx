import { PillLink } from './PublicPage';
import { Link as RouterLink } from 'react-router';
import { Logo } from '../../components/Logo';
import { SocialLinks } from '../../components/SocialLinks';
import { useDocumentTitle } from '../../lib/documentTitle';
import '../../styles/pages.css';

/** The thank-you page after onboarding or a waitlist: thanks, follow us, back home. */
export default function ThanksPage() {
  useDocumentTitle('Thank you');
  return (
    <main id="main" className="solo">
      <div className="solo-in">
        <RouterLink to="/" aria-label="Salaula home" className="solo-logo solo-logo-l">
          <Logo size={44} />
        </RouterLink>
        <h1 className="solo-h1 solo-h1-thanks">Thank you!</h1>
        <p className="solo-p solo-p-l">Zikomo, and welcome to Salaula. You are in, and we will be in touch as soon as there is news.</p>
        <p className="solo-p solo-p-muted">
          While you wait, follow us for launch news, style picks and first looks at what is coming to our rails.
        </p>
        <div className="solo-social">
          <SocialLinks />
        </div>
        <PillLink to="/">RETURN TO HOME</PillLink>
      </div>
    </main>
  );
}
