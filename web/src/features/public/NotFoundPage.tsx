import { ButtonLink } from '../../components/ui/Link';
import { useDocumentTitle } from '../../lib/documentTitle';
import '../../styles/pages.css';

/** The 404 page every unknown path redirects to. */
export default function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <main id="main" className="solo solo-404">
      <div className="solo-in">
        <img src="/images/floating-hanger.svg" alt="" width={240} height={260} className="solo-hanger" />
        <h1 className="solo-h1 solo-h1-404">Oooppss!!</h1>
        <p className="solo-p solo-p-404">Hey friend, the page you are looking for does not exist yet or another error occurred.</p>
        <ButtonLink to="/" variant="solid" size="large" className="solo-big-btn">
          RETURN TO HOME
        </ButtonLink>
      </div>
    </main>
  );
}
