import { TextLink } from '../../components/ui/Link';
import { CONTACT_ADDRESS, MINIMUM_USER_AGE } from '../../config/constants';
import { useSupportEmail } from '../../components/useSupportEmail';
import { LegalPage, type LegalSection } from './LegalPage';

/** Privacy Policy: 10 sections, under Zambia's Data Protection Act No. 3 of 2021. */
export default function PrivacyPage() {
  const email = useSupportEmail();
  const mail = <TextLink href={`mailto:${email}`}>{email}</TextLink>;
  const sections: LegalSection[] = [
    {
      title: 'Who we are',
      body: (
        <p>
          Salaula, of {CONTACT_ADDRESS}, decides how your personal data is used and is responsible for it under the
          Data Protection Act No. 3 of 2021 of the Republic of Zambia. You can reach us about your data at {mail}.
        </p>
      ),
    },
    {
      title: 'What we collect',
      body: (
        <>
          <ul>
            <li>Account details: your e-mail address and a password (stored only as a secure hash).</li>
            <li>Profile details you give us: name, location, age, phone number, gender, height, waist size, your style description and the aesthetics you pick.</li>
            <li>Photos you upload: full-body pictures for fitting, and sellers&apos; logos or brand images.</li>
            <li>Seller details: business name, registration number if you have one, and how you sell today.</li>
            <li>Messages you send through the contact form, and waitlist sign-ups (your e-mail and the programme).</li>
            <li>Technical data: your IP address and basic request logs, used to keep the service safe.</li>
          </ul>
          <p>
            Visit counts: our own server counts page views to learn how many people visit and which link, campaign or
            radio mention brought them. We use no cookies and store nothing on your device. A visit is counted with a
            code made from your IP address, your browser&apos;s name and a random value that we replace and delete every
            day, so no visit can be tied to you afterwards; your IP address and browser are not kept. We keep only the
            page, the website that sent you and the campaign named in the link, delete these records after 30 days and
            keep only daily totals. If your browser sends Do Not Track or Global Privacy Control, we count nothing.
          </p>
        </>
      ),
    },
    {
      title: 'Why we use it',
      body: (
        <ul>
          <li>To create and run your account and your buyer or seller profile.</li>
          <li>To show you clothes that fit your size and style, and, in Phase 2, to build your 3D avatar.</li>
          <li>To answer your messages and tell you when a programme you joined opens.</li>
          <li>To protect Salaula and its users from fraud and abuse.</li>
        </ul>
      ),
    },
    {
      title: 'Our lawful basis',
      body: (
        <p>
          We process your data to perform our agreement with you (your account and orders), with your consent
          (waitlists, photos and optional profile details, which you can withdraw at any time), and where we have a
          legitimate interest in keeping the service secure. We do not sell your personal data.
        </p>
      ),
    },
    {
      title: 'Who we share it with',
      body: (
        <p>
          Only with those who help us run Salaula (hosting, e-mail and, after launch, payment and delivery partners),
          each bound to protect your data and use it only for us. A buyer and a seller see what they need to complete
          an order. We share data with authorities only when Zambian law requires it.
        </p>
      ),
    },
    {
      title: 'How long we keep it',
      body: (
        <ul>
          <li>Account and profile data: while your account is open. When you delete your account (on My Account, or by writing to us) your account, profile, photos and logos, sign-in sessions, and the waitlist sign-ups and contact messages under your e-mail are deleted at once.</li>
          <li>Accounts whose e-mail address was never confirmed, when we ask for confirmation: deleted after 30 days.</li>
          <li>Photos and logos you uploaded but never saved to your profile: deleted after 24 hours.</li>
          <li>The e-mails we send you: their text for 7 days after sending, then only to whom, the subject and when, for 30 days in all.</li>
          <li>The record of what you agreed to (which version of these terms, and when): as long as your account is open.</li>
          <li>Waitlist sign-ups: until the programme opens and we have told you, or until you ask us to remove you.</li>
          <li>Contact messages: up to 2 years, so we can follow up on earlier questions.</li>
          <li>Security logs: up to 90 days. Records the law requires us to keep (such as payments): as long as it requires.</li>
        </ul>
      ),
    },
    {
      title: 'Your rights',
      body: (
        <>
          <p>Under the Data Protection Act No. 3 of 2021 you have the right to:</p>
          <ul>
            <li>access the personal data we hold about you and get a copy of it;</li>
            <li>correct data that is wrong or incomplete;</li>
            <li>have your data deleted;</li>
            <li>object to, or ask us to restrict, how we use it, and withdraw consent you gave;</li>
            <li>complain to the Office of the Data Protection Commissioner.</li>
          </ul>
          <p>
            Signed in, you can do most of this yourself on{' '}
            <TextLink to="/account">My Account</TextLink>: see and correct your profile, download
            everything we hold about you as one file, and delete your account.
          </p>
          <p>Or write to {mail} and we will answer within 30 days. We may ask you to confirm who you are first.</p>
        </>
      ),
    },
    {
      title: 'How we protect it',
      body: (
        <p>
          Passwords are hashed, connections are encrypted, uploaded files are checked before we store them, and only
          the people who need your data to help you can see it. If a breach puts your data at risk, we will tell you
          and the Data Protection Commissioner as the law requires.
        </p>
      ),
    },
    {
      title: 'Children',
      body: (
        <p>
          Salaula is for people aged {MINIMUM_USER_AGE} and over. Younger people may only use it with the consent of a
          parent or guardian, which they confirm when they create their profile, and we keep that record. If you
          believe a child has given us data without that consent, tell us and we will delete it.
        </p>
      ),
    },
    {
      title: 'Changes and contact',
      body: (
        <p>
          We will show the date of any change at the top of this page and e-mail account holders about important
          ones. For anything about your privacy, write to {mail}, use our{' '}
          <TextLink to="/contact">contact form</TextLink>, or visit us in {CONTACT_ADDRESS}.
        </p>
      ),
    },
  ];
  return (
    <LegalPage
      title="Privacy Policy"
      intro={<p>What personal data Salaula collects, why, how long we keep it, and the rights you have over it.</p>}
      sections={sections}
    />
  );
}
