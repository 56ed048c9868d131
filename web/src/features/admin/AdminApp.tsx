import { lazy, Suspense, useEffect } from 'react';
import { NavLink, Route, Routes, useLocation, useNavigate } from 'react-router';
import { QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { Tabs } from 'radix-ui';
import { Alert, Button } from '../../components/ui';
import { queryClient } from '../../lib/queryClient';
import { RequireAuth } from '../auth/RequireAuth';
import { useAuth } from '../auth/AuthProvider';
import { verifiedFactor } from '../auth/mfa';
import { AdminError, adminGet, adminKeys, errorText } from './api';
import { LiveIndicator, LiveProvider } from './live';
import { AlsoHere } from './presence';
import { OverviewPage } from './OverviewPage';
import { PersonPage } from './PersonPage';
import { SettingsPage } from './SettingsPage';
import { useDocumentTitle } from '../../lib/documentTitle';
import { AuditPage, MessagesPage, PeoplePage, WaitlistPage } from './pages';
import { AnnouncementsPage } from './AnnouncementsPage';
import { ReferralsPage } from './ReferralsPage';
// The design tokens admin.css reads (the app's entry may load them too; the import is the same module).
import '../../styles/tokens.css';
import './admin.css';

// The two-step sign-in screens come from the account pages: loaded only when an operator needs one.
const SecondStepForm = lazy(() => import('../auth/SecondStepForm').then((m) => ({ default: m.SecondStepForm })));
const TwoStepSettings = lazy(() => import('../auth/SecurityPage').then((m) => ({ default: m.TwoStepSettings })));

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
    <main className="adm-wrap adm-stack" style={{ maxWidth: 600, padding: '64px 16px', textAlign: 'center', alignItems: 'center' }}>
      <h1 className="fk-h1">This page is for the Salaula team</h1>
      <p className="adm-gap-b">Your account does not have access to the console.</p>
      <a className="adm-btnlink adm-btnlink-solid" href="/">
        Go to the home page
      </a>
    </main>
  );
}

/** The operator whose answers the QueryClient holds under ['admin']. */
let cacheOwner: string | undefined;

type Access = 'ok' | 'denied' | 'enrol' | 'code' | { problem: string };

/** checkAccess asks the server (role and two-step sign-in are read on every call); the answer only picks the screen. */
async function checkAccess(): Promise<Access> {
  try {
    await adminGet('audit?limit=1');
    return 'ok';
  } catch (e) {
    if (e instanceof AdminError && e.code === 'insufficient_aal') {
      // An operator who has not passed two-step sign-in: enrol first, or type the code.
      try {
        return (await verifiedFactor()) ? 'code' : 'enrol';
      } catch (err) {
        return { problem: errorText(err) };
      }
    }
    return e instanceof AdminError && (e.status === 403 || e.status === 401) ? 'denied' : { problem: errorText(e) };
  }
}

function Console() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { user, logout } = useAuth();
  const client = useQueryClient();
  const userId = user?.id;
  // The console's answers are one operator's: another operator signing in on this device starts afresh
  // (the pages show only once this operator's access is checked, after this has run).
  useEffect(() => {
    if (cacheOwner === userId) return;
    cacheOwner = userId;
    client.removeQueries({ queryKey: adminKeys.all, predicate: (q) => q.queryKey[1] !== 'access' || q.queryKey[2] !== userId });
  }, [client, userId]);
  const access = useQuery({ queryKey: adminKeys.access(userId), queryFn: checkAccess, staleTime: 0, gcTime: 0, retry: false });
  const check = () => void access.refetch();
  const checking = <p role="status" style={{ padding: 24 }}>Checking access…</p>;
  if (access.isPending) return checking;
  const a = access.data;
  if (a === 'denied') return <NotForYou />;
  if (a === 'enrol')
    return (
      <Suspense fallback={checking}>
        <TwoStepSettings notice={ENROL_NOTICE} onTurnedOn={check} />
      </Suspense>
    );
  if (a === 'code')
    return (
      <main className="adm-wrap" style={{ maxWidth: 444, padding: '24px 16px' }}>
        <div className="adm-card">
          <Suspense fallback={checking}>
            <SecondStepForm onVerified={async () => void (await access.refetch())} onOtherAccount={() => logout()} />
          </Suspense>
        </div>
      </main>
    );
  if (a !== 'ok') return <Alert severity="error">{a ? a.problem : errorText(access.error)}</Alert>;
  const current = SECTIONS.slice().reverse().find((s) => pathname === s.to || pathname.startsWith(s.to + '/'))?.to ?? '/admin';
  return (
    <LiveProvider>
      <div className="adm">
        <header className="adm-header">
          <div className="adm-wrap adm-bar">
            <p className="adm-brand">Salaula console</p>
            <LiveIndicator />
            <p className="adm-who">{user?.email}</p>
            <Button size="small" onClick={() => logout()}>
              Sign out
            </Button>
          </div>
          <div className="adm-wrap">
            {/* Tabs as links: the address picks the tab; arrows move between them, Enter or Space opens one. */}
            <nav aria-label="Console sections">
              <Tabs.Root value={current} onValueChange={(to) => navigate(to)} activationMode="manual">
                <Tabs.List className="adm-tabs">
                  {SECTIONS.map((s) => (
                    <Tabs.Trigger key={s.to} value={s.to} asChild>
                      <NavLink className="adm-tab" to={s.to} end={s.to === '/admin'} aria-controls={undefined}>
                        {s.label}
                      </NavLink>
                    </Tabs.Trigger>
                  ))}
                </Tabs.List>
              </Tabs.Root>
            </nav>
          </div>
        </header>
        <main className="adm-wrap adm-main">
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
            <Route path="*" element={<p>No such page in the console.</p>} />
          </Routes>
        </main>
      </div>
    </LiveProvider>
  );
}

/** The founders' console (/admin): its own lazily loaded chunk, with the app's QueryClient. Signed-out visitors go to /sign_up and back. */
export default function AdminApp() {
  useDocumentTitle('Console');
  return (
    <QueryClientProvider client={queryClient}>
      <RequireAuth>
        <Console />
      </RequireAuth>
    </QueryClientProvider>
  );
}
