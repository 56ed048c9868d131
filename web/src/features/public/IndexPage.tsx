import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { FUNCTIONS } from '../../config/constants';
import { getSupabase } from '../../lib/supabase';
import { useAuth } from '../auth/AuthProvider';
import { RequireAuth } from '../auth/RequireAuth';
import { SocialLinks } from '../../components/SocialLinks';
import { Band, PublicPage, SectionTitle } from './PublicPage';

const NEXT_STEPS = [
  { title: 'Clear your wardrobe', text: 'Got clothes you no longer wear? Join the Wardrobe Clearance waitlist and we will sell them for you.', to: '/wardrobeclearance', action: 'Join the Program' },
  { title: 'See the difference you make', text: 'Find out how much water and carbon second-hand clothes save.', to: '/impact', action: 'Our Impact' },
  { title: 'Questions or ideas?', text: 'We read every message. Tell us what you would love to find on Salaula.', to: '/contact', action: 'Contact Us' },
];

/** useFirstName is the first word of the signed-in person's saved full name, '' until known (or without one). */
function useFirstName(): string {
  const [name, setName] = useState('');
  useEffect(() => {
    let live = true;
    getSupabase()
      .then((c) => c.functions.invoke(FUNCTIONS.getProfileMe, { method: 'POST' }))
      .then(({ data }) => {
        const full = typeof data?.full_name === 'string' ? data.full_name.trim() : '';
        if (live) setName(full.split(/\s+/)[0] ?? '');
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);
  return name;
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
        <Typography sx={{ opacity: 0.95, fontSize: '1.1rem', maxWidth: 720 }}>
          Your profile is saved. The shop opens soon, and your feed will be ready on launch day. Here is what you can do
          in the meantime.
        </Typography>
      </Band>
      <Band tone="plain" label="next-title">
        <SectionTitle id="next-title">Next steps</SectionTitle>
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
          {NEXT_STEPS.map((s) => (
            <Box component="li" key={s.to} sx={{ bgcolor: 'background.paper', border: '1px solid #e3ded5', borderRadius: 4, p: 3, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
              <SectionTitle level={3}>{s.title}</SectionTitle>
              <Typography sx={{ color: 'text.secondary', flex: 1 }}>{s.text}</Typography>
              <Button component={RouterLink} to={s.to} variant="outlined" sx={{ alignSelf: 'flex-start', borderRadius: 999, borderWidth: 2 }}>
                {s.action}
              </Button>
            </Box>
          ))}
        </Box>
        <Box sx={{ mt: 5 }}>
          <SectionTitle level={3}>Follow us for launch news</SectionTitle>
          <SocialLinks />
        </Box>
        <Button
          variant="text"
          sx={{ mt: 4 }}
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
export default function IndexPage() {
  return (
    <RequireAuth>
      <Welcome />
    </RequireAuth>
  );
}
