import { Link as RouterLink } from 'react-router';
import { Logo } from './Logo';
import { SocialLinks } from './SocialLinks';
import { useSupportEmail } from './useSupportEmail';

const HELP = [
  { label: 'Contact us', to: '/contact' },
  { label: 'About Us', to: '/about' },
  { label: 'Wardrobe Clearance', to: '/wardrobeclearance' },
  { label: 'Our Impact', to: '/impact' },
];
const LEGAL = [
  { label: 'Privacy Policy', to: '/privacy' },
  { label: 'Terms and Conditions', to: '/termsandconditions' },
];

function Column({ title, links }: { title: string; links: { label: string; to: string }[] }) {
  return (
    <div>
      <h2 className="footer-h">{title}</h2>
      <ul className="footer-links">
        {links.map((l) => (
          <li key={l.to}>
            <RouterLink to={l.to}>{l.label}</RouterLink>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The site footer: Help and Legal Info columns, the support e-mail, social links and the copyright year. */
export function Footer() {
  const email = useSupportEmail();
  return (
    <footer className="footer">
      <div className="footer-in">
        <div className="footer-cols">
          <div>
            <Logo light />
            <p className="footer-blurb">Pre-loved clothes from Lusaka, picked with care and passed on.</p>
          </div>
          <nav aria-label="Footer" className="footer-nav">
            <Column title="Help" links={HELP} />
            <Column title="Legal Info" links={LEGAL} />
          </nav>
          <div>
            <h2 className="footer-h">Get in touch</h2>
            <a href={`mailto:${email}`} className="footer-mail">
              {email}
            </a>
            <SocialLinks light />
          </div>
        </div>
        <p className="footer-copy">© {new Date().getFullYear()} Salaula. All rights reserved.</p>
      </div>
    </footer>
  );
}
