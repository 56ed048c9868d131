import { TextLink } from '../../components/ui/Link';
import { CONTACT_ADDRESS, MINIMUM_USER_AGE } from '../../config/constants';
import { useSupportEmail } from '../../components/useSupportEmail';
import { LegalPage, type LegalSection } from './LegalPage';

/** Terms and Conditions: 11 sections, under the law of the Republic of Zambia. */
export default function TermsPage() {
  const email = useSupportEmail();
  const sections: LegalSection[] = [
    {
      title: 'About these terms',
      body: (
        <p>
          These terms are an agreement between you and Salaula, of {CONTACT_ADDRESS}. They apply whenever you visit
          our website, join a waitlist, create an account, or buy or sell through Salaula. By using Salaula you agree
          to them. If you do not agree, please do not use the service.
        </p>
      ),
    },
    {
      title: 'Who can use Salaula',
      body: (
        <p>
          You must be {MINIMUM_USER_AGE} years or older to create an account, or have the consent of a parent or
          guardian who agrees to these terms for you and is responsible for how you use Salaula. You must give us true
          details about yourself and keep them up to date.
        </p>
      ),
    },
    {
      title: 'Your account',
      body: (
        <>
          <p>
            Keep your password to yourself. You are responsible for what happens in your account. If you think
            someone else has used it, change your password and tell us straight away.
          </p>
          <p>You may close your account at any time by writing to us.</p>
        </>
      ),
    },
    {
      title: 'Before we launch',
      body: (
        <p>
          Salaula is not open for sales yet. We are launching in two phases and the launch date will be announced.
          Features we describe, such as AI-curated feeds, virtual fitting with a 3D avatar, payments, delivery and
          order tracking, may change before they arrive. Joining a waitlist does not oblige you or us to anything
          beyond letting you know when a programme opens.
        </p>
      ),
    },
    {
      title: 'Buying on Salaula',
      body: (
        <p>
          Items are second-hand. Sellers must describe their condition honestly, including wear, marks and repairs.
          Prices are shown in Zambian kwacha. When you pay for an item you make a contract with its seller; Salaula
          provides the marketplace, the payment and the delivery service. Your rights under the Competition and
          Consumer Protection Act of Zambia are not affected by these terms.
        </p>
      ),
    },
    {
      title: 'Selling on Salaula',
      body: (
        <ul>
          <li>You may only sell clothes you own and have the right to sell.</li>
          <li>No counterfeit goods, stolen goods, or items that are unsafe or against the law.</li>
          <li>Photos and descriptions must be your own and must show the real item.</li>
          <li>You are responsible for any taxes and business registration your selling requires.</li>
        </ul>
      ),
    },
    {
      title: 'Wardrobe Clearance and upcycling',
      body: (
        <p>
          When the Wardrobe Clearance Program opens, we will collect clothes you no longer want, sell them and pay
          you your share. The pickup areas, the share and how payment is made will be set out before you hand over
          anything. Items we cannot sell may go to our Upcycling Initiative or be returned to you, as you choose.
        </p>
      ),
    },
    {
      title: 'Fair use',
      body: (
        <p>
          Do not misuse Salaula: no harassment, fraud, spam, attempts to break into accounts or our systems, or
          copying of our content or other users&apos; listings. We may suspend or close an account that breaks these
          terms, and we will tell you why unless the law stops us.
        </p>
      ),
    },
    {
      title: 'Our content and yours',
      body: (
        <p>
          The Salaula name, logo, artwork and text belong to us. You keep ownership of the photos and text you upload;
          you allow us to show them on Salaula, and to resize them so that they load quickly, for as long as they are
          on the service.
        </p>
      ),
    },
    {
      title: 'Liability',
      body: (
        <p>
          We work hard to keep Salaula available and correct, but we cannot promise it will always be free of errors
          or interruptions. As far as the law allows, we are not liable for losses you could not reasonably have
          expected, or that were caused by another user. Nothing in these terms limits liability that cannot be
          limited under the law of Zambia.
        </p>
      ),
    },
    {
      title: 'Governing law, changes and contact',
      body: (
        <>
          <p>
            These terms are governed by the laws of the Republic of Zambia, and the courts of Zambia will settle any
            dispute about them. We would always rather sort a problem out by talking first.
          </p>
          <p>
            We may update these terms. We will show the new date at the top of this page and tell account holders by
            e-mail about any important change before it takes effect.
          </p>
          <p>
            Questions? Write to <TextLink href={`mailto:${email}`}>{email}</TextLink>, use our{' '}
            <TextLink to="/contact">contact form</TextLink>, or visit us in {CONTACT_ADDRESS}.
          </p>
        </>
      ),
    },
  ];
  return (
    <LegalPage
      title="Terms and Conditions"
      intro={<p>Plain words about how Salaula works, what we promise you, and what we ask of you in return.</p>}
      sections={sections}
    />
  );
}
