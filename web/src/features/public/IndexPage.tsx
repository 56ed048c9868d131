import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Button, ButtonLink } from '../../components/ui';
import { useAuth } from '../../lib/auth';
import { fetchSavedProfile } from '../../lib/profile';
import { withQueries } from '../../lib/QueryProvider';
import { accountKeys } from '../account/queries';
import { RequireAuth } from '../auth/RequireAuth';
import { SocialLinks } from '../../components/SocialLinks';
import { Band, PublicPage, SectionTitle } from './PublicPage';
import '../../styles/pages.css';

const NEXT_STEPS = [
  { title: 'Clear your wardrobe', text: 'Got clothes you no longer wear? Join the Wardrobe Clearance waitlist and we will sell them for you.', to: '/wardrobeclearance', action: 'Join the Program' },
  { title: 'See the difference you make', text: 'Find out how much water and carbon second-hand clothes save.', to: '/impact', action: 'Our Impact' },
  { title: 'Questions or ideas?', text: 'We read every message. Tell us what you would love to find on Salaula.', to: '/contact', action: 'Contact Us' },
];

/** useFirstName is the first word of the signed-in person's saved full name, '' until known (or without one). */
function useFirstName(): string {
  const userId = useAuth().user?.id ?? '';
  const { data } = useQuery({ queryKey: accountKeys.profile(userId), queryFn: fetchSavedProfile });
  const full = typeof data?.full_name === 'string' ? data.full_name.trim() : '';
  return full.split(/\s+/)[0] ?? '';
}

function Welcome() {
  const { logout } = useAuth();
  const navigate = useNavigate();
  const name = useFirstName();
  return (
    <PublicPage title="Welcome to Salaula">
      <Band tone="green" label="welcome-title">
        <SectionTitle id="welcome-title">
          {/* A long name breaks anywhere rather than push the page sideways on a phone. */}
          You are all set{name ? <span style={{ overflowWrap: 'anywhere' }}>, {name}</span> : ''}!
        </SectionTitle>
        <p className="welcome-lead">
          Your profile is saved. The shop opens soon, and your feed will be ready on launch day. Here is what you can do
          in the meantime.
        </p>
      </Band>
      <Band tone="plain" label="next-title">
        <SectionTitle id="next-title">Next steps</SectionTitle>
        <ul className="tiles">
          {NEXT_STEPS.map((s) => (
            <li key={s.to} className="tile">
              <SectionTitle level={3}>{s.title}</SectionTitle>
              <p className="tile-text">{s.text}</p>
              <ButtonLink to={s.to} variant="outline">
                {s.action}
              </ButtonLink>
            </li>
          ))}
        </ul>
        <div className="follow">
          <SectionTitle level={3}>Follow us for launch news</SectionTitle>
          <SocialLinks />
        </div>
        <Button
          variant="plain"
          className="signout"
          onClick={async () => {
            await logout();
            navigate('/');
          }}
        >
          Sign out
        </Button>
      </Band>
    </PublicPage>
  );
}

/** /index: the signed-in home after sign-in: a welcome and next steps. Visitors are sent to sign in first. */
function IndexPage() {
  return (
    <RequireAuth>
      <Welcome />
    </RequireAuth>
  );
}

export default withQueries(IndexPage);
