import { useCallback, useEffect, useState } from 'react';
import { NavLink, Route, Routes, useLocation } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { RequireAuth } from '../auth/RequireAuth';
import { useAuth } from '../auth/AuthProvider';
import { SecondStepForm } from '../auth/SecondStepForm';
import { TwoStepSettings } from '../auth/SecurityPage';
import { verifiedFactor } from '../auth/mfa';
import { AdminError, adminGet } from './api';
import { LiveIndicator, LiveProvider } from './live';
import { AlsoHere } from './presence';
import { OverviewPage } from './OverviewPage';
import { PersonPage } from './PersonPage';
import { SettingsPage } from './SettingsPage';
import { useDocumentTitle } from '../../lib/documentTitle';
import { AuditPage, MessagesPage, PeoplePage, WaitlistPage } from './pages';
import { AnnouncementsPage } from './AnnouncementsPage';
import { ReferralsPage } from './ReferralsPage';

const SECTIONS = [
  { to: '/admin', label: 'Overview' },
  { to: '/admin/waitlist', label: 'Waitlist' },
  { to: '/admin/messages', label: 'Messages' },
  { to: '/admin/people', label: 'People' },
  { to: '/admin/announcements', label: 'Announcements' },
  { to: '/admin/referrals', label: 'Referrals' },
  { to: '/admin/audit', label: 'Audit log' },
  { to: '/admin/settings', label: 'Settings' },
];

/** Why the console shows the two-step sign-in walkthrough to an operator without an authenticator app. */
const ENROL_NOTICE =
  'The Salaula console needs two-step sign-in. Turn it on with an authenticator app on your phone to continue; from then on, signing in asks for a code from the app.';

/** The screen everyone but an operator sees. */
function NotForYou() {
  return (
    <Container maxWidth="sm" sx={{ py: 8, textAlign: 'center' }}>
      <Typography variant="h4" component="h1" gutterBottom>
        This page is for the Salaula team
      </Typography>
      <Typography sx={{ mb: 3 }}>Your account does not have access to the console.</Typography>
      <Button variant="contained" href="/">
        Go to the home page
      </Button>
    </Container>
  );
}

function Console() {
  const { pathname } = useLocation();
  const { user, logout } = useAuth();
  const [access, setAccess] = useState<'checking' | 'ok' | 'denied' | 'enrol' | 'code' | string>('checking');
  const check = useCallback(() => {
    // The server decides (role and two-step sign-in read on every call); this first call only picks the screen.
    adminGet('audit?limit=1')
      .then(() => setAccess('ok'))
      .catch(async (e) => {
        if (e instanceof AdminError && e.code === 'insufficient_aal') {
          // An operator who has not passed two-step sign-in: enrol first, or type the code.
          try {
            setAccess((await verifiedFactor()) ? 'code' : 'enrol');
          } catch (err) {
            setAccess((err as Error).message);
          }
          return;
        }
        setAccess(e instanceof AdminError && (e.status === 403 || e.status === 401) ? 'denied' : (e as Error).message);
      });
  }, []);
  useEffect(check, [check]);
  if (access === 'checking') return <Typography role="status" sx={{ p: 3 }}>Checking access…</Typography>;
  if (access === 'denied') return <NotForYou />;
  if (access === 'enrol') return <TwoStepSettings notice={ENROL_NOTICE} onTurnedOn={check} />;
  if (access === 'code')
    return (
      <Container component="main" maxWidth="xs" sx={{ py: { xs: 3, sm: 6 }, px: 2 }}>
        <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
          <SecondStepForm onVerified={async () => check()} onOtherAccount={() => logout()} />
        </Paper>
      </Container>
    );
  if (access !== 'ok') return <Alert severity="error">{access}</Alert>;
  const current = SECTIONS.slice().reverse().find((s) => pathname === s.to || pathname.startsWith(s.to + '/'))?.to ?? '/admin';
  return (
    <LiveProvider>
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box component="header" sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
        <Container maxWidth="lg" sx={{ display: 'flex', alignItems: 'center', gap: 1, pt: 1.5, flexWrap: 'wrap' }}>
          <Typography component="p" variant="h6" sx={{ flexGrow: 1 }}>
            Salaula console
          </Typography>
          <LiveIndicator />
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {user?.email}
          </Typography>
          <Button size="small" onClick={() => logout()}>
            Sign out
          </Button>
        </Container>
        <Container maxWidth="lg">
          <Tabs component="nav" aria-label="Console sections" value={current} variant="scrollable" allowScrollButtonsMobile>
            {SECTIONS.map((s) => (
              <Tab key={s.to} value={s.to} label={s.label} component={NavLink} to={s.to} end={s.to === '/admin'} />
            ))}
          </Tabs>
        </Container>
      </Box>
      <Container component="main" maxWidth="lg" sx={{ py: 3 }}>
        <AlsoHere userId={user?.id} email={user?.email} page={pathname} />
        <Routes>
          <Route index element={<OverviewPage />} />
          <Route path="waitlist" element={<WaitlistPage />} />
          <Route path="messages" element={<MessagesPage />} />
          <Route path="people" element={<PeoplePage />} />
          <Route path="people/:id" element={<PersonPage />} />
          <Route path="announcements" element={<AnnouncementsPage />} />
          <Route path="referrals" element={<ReferralsPage />} />
          <Route path="audit" element={<AuditPage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="*" element={<Typography>No such page in the console.</Typography>} />
        </Routes>
      </Container>
    </Box>
    </LiveProvider>
  );
}

/** The founders' console (/admin): its own lazily loaded chunk. Signed-out visitors go to /sign_up and back. */
export default function AdminApp() {
  useDocumentTitle('Console');
  return (
    <RequireAuth>
      <Console />
    </RequireAuth>
  );
}
