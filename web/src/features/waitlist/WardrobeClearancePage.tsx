import { Link as RouterLink } from 'react-router';
import { Footer } from '../../components/Footer';
import { Alert, FormIcon } from '../../components/ui';
import { Icon } from '../../components/icons';
import { PROGRAMS } from '../../config/constants';
import { useDocumentTitle } from '../../lib/documentTitle';
import { WaitlistForm } from './WaitlistForm';
import '../../styles/form-pages.css';

const STEPS = [
  {
    icon: <FormIcon name="shipping" />,
    title: 'We Pick Up Your Items',
    text: 'Tell us what you no longer wear and we collect it from your door, anywhere in Lusaka, from Kabulonga to Matero.',
  },
  {
    icon: <FormIcon name="payments" />,
    title: 'Get Paid Fast',
    text: 'When your clothes sell, your share comes straight to your mobile money or bank account. No waiting for weeks.',
  },
  {
    icon: <FormIcon name="inventory" />,
    title: 'We Handle Everything',
    text: 'We sort, photograph, price and list every piece, answer buyers and deliver. You just clear your wardrobe.',
  },
];

const REASONS = [
  { title: 'No Business Setup Required', text: 'No shop, no stall, no registration. Open to every buyer with clothes to spare.' },
  { title: 'Convenient Pickup Service', text: 'Choose a time that suits you and we come to you.' },
  { title: 'Fair Pricing', text: 'Prices set from what similar pieces sell for on Salaula, shown to you before they go live.' },
  { title: 'Zero Effort Required', text: 'No photos to take, no chats with buyers, no trips to the market.' },
];

/** The Wardrobe Clearance page (/wardrobeclearance): what the program is, and its waitlist. */
export default function WardrobeClearancePage() {
  useDocumentTitle(PROGRAMS.wardrobeClearance);
  return (
    <div className="app">
      <main className="main wc-main">
        <RouterLink to="/" className="wc-back">
          <Icon name="arrowBack" small />
          Back to Home
        </RouterLink>

        <h1 className="wc-title">Join Our Wardrobe Clearance Program</h1>
        <p className="wc-lead">
          Turn the clothes you no longer wear into money. We pick them up, sell them to shoppers across Zambia and pay
          you.
        </p>

        <section aria-labelledby="how-it-works" className="wc-section">
          <h2 id="how-it-works" className="wc-h2">
            How It Works
          </h2>
          <ol className="wc-steps">
            {STEPS.map((s) => (
              <li key={s.title} className="wc-step">
                <div className="wc-step-icon" aria-hidden="true">
                  {s.icon}
                </div>
                <h3 className="wc-h3">{s.title}</h3>
                <p className="fk-body2">{s.text}</p>
              </li>
            ))}
          </ol>
        </section>

        <section aria-labelledby="why-join" className="wc-section">
          <h2 id="why-join" className="wc-h2">
            Why Join?
          </h2>
          <ul className="wc-reasons">
            {REASONS.map((r) => (
              <li key={r.title} className="wc-reason">
                <FormIcon name="checkCircle" />
                <div>
                  <h3 className="wc-reason-h">{r.title}</h3>
                  <p className="fk-body2 muted">{r.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </section>

        <Alert icon={<FormIcon name="schedule" />} severity="info" role="note" className="wc-note">
          <strong>Coming Soon.</strong> The Wardrobe Clearance Program is not open yet. Join the waitlist and be among the
          first in Lusaka to clear your wardrobe.
        </Alert>

        <section aria-labelledby="join-waitlist" className="wc-join">
          <h2 id="join-waitlist" className="wc-h2">
            Join the Waitlist
          </h2>
          <WaitlistForm
            programName={PROGRAMS.wardrobeClearance}
            errorMessage="Something went wrong. Please try again."
            successDetail="We'll email you when ready."
          />
        </section>
      </main>
      <Footer />
    </div>
  );
}
