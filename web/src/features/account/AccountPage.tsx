import { useCallback, useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { PageHeader } from '../../components/PageHeader';
import { ACCOUNT_SECURITY_PATH } from '../../config/constants';
import { RequireAuth } from '../auth/RequireAuth';
import { PasswordField } from '../auth/PasswordField';
import { fetchSavedProfile, type SavedProfile } from '../onboarding/savedProfile';
import { changePassword, deleteMyAccount, downloadMyData, fetchMyAddress, forgetSession, signOutOf, type MyAddress } from './api';
import { SentWithAddress } from './SentWithAddress';
import { MyPhotos } from './MyPhotos';
import { useAction, type ActionState } from './useAction';
import { useSecondStep } from '../auth/useSecondStep';
import { useOwnProfileLive } from './liveProfile';
import { useAuth } from '../auth/AuthProvider';
import { localPhone } from '../../lib/words';
import { useLeadToProblem } from '../../lib/leadToProblem';

/** How each role reads on the page. */
const ROLE_LABELS: Record<string, string> = { buyer: 'Buyer', seller: 'Seller', buyer_and_seller: 'Buyer and seller' };

/** A section of the page with its heading. */
function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `account-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <Box component="section" aria-labelledby={id} sx={{ py: 2, borderTop: '1px solid #e3ded5', display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Typography id={id} component="h2" sx={{ fontWeight: 800, fontSize: '1.15rem' }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** The answer of an action: an error alert, or the done text in a status line. */
function ActionMessage({ state, done }: { state: ActionState; done: string }) {
  if (state.kind === 'error') return <Alert severity="error">{state.message}</Alert>;
  if (state.kind === 'done') return <Alert severity="success" role="status">{done}</Alert>;
  return null;
}

/** One saved field: label and value (an empty value shows as a dash). */
function Field({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '180px 1fr' }, gap: { xs: 0, sm: 2 } }}>
      <Typography component="dt" sx={{ fontWeight: 700, color: 'text.secondary' }}>{label}</Typography>
      <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>{value === '' || value == null ? '–' : value}</Typography>
    </Box>
  );
}

/** Thumbnails of saved images. */
function Pictures({ urls, what }: { urls: string[]; what: string }) {
  if (urls.length === 0) return <Field label={`${what}s`} value="None" />;
  return (
    <Box>
      <Typography sx={{ fontWeight: 700, color: 'text.secondary' }}>{what}s</Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {urls.map((u, i) => (
          <li key={u}>
            <Box component="img" src={u} alt={`${what} ${i + 1}`} width={96} height={96} loading="lazy"
              sx={{ objectFit: 'cover', borderRadius: 2, bgcolor: '#e9e4da', display: 'block' }} />
          </li>
        ))}
      </Box>
    </Box>
  );
}

/** The profile as saved, with the ways to change it. */
function ProfileDetails({ p }: { p: SavedProfile }) {
  const role = p.role;
  const buyer = role === 'buyer' || role === 'buyer_and_seller';
  const seller = role === 'seller' || role === 'buyer_and_seller';
  const edit = (path: string, r: string) => `${path}?role=${r}&edit=1`;
  return (
    <>
      <Box component="dl" sx={{ m: 0, display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Field label="Role" value={role ? ROLE_LABELS[role] : 'Not chosen yet'} />
        <Field label="E-mail" value={p.email} />
        {role && (
          <>
            <Field label="Full name" value={p.full_name} />
            <Field label="Location" value={p.location} />
            <Field label="Age" value={p.age ?? ''} />
            <Field label="Phone number" value={localPhone(p.phone_number ?? '')} />
            <Field label="Gender" value={p.gender} />
          </>
        )}
        {buyer && (
          <>
            <Field label="Height" value={p.height} />
            <Field label="Waist size" value={p.waist_size} />
            <Field label="Your style" value={p.style_description} />
            <Field label="Clothing aesthetics" value={(p.clothing_aesthetics ?? []).join(', ')} />
            <Field label="Inspiration" value={p.inspiration} />
            <Field label="Wardrobe Clearance Program" value={p.wants_clearance_program ? 'Joined' : 'Not joined'} />
          </>
        )}
        {seller && (
          <>
            <Field label="Business name" value={p.business_name} />
            <Field label="Registration number" value={p.registration_number ?? ''} />
            <Field label="Business mode" value={p.business_mode} />
          </>
        )}
      </Box>
      {buyer && <Pictures urls={p.body_photo_urls ?? []} what="Photo" />}
      {seller && <Pictures urls={p.logo_urls ?? []} what="Logo" />}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {!role && <Button variant="contained" component={RouterLink} to="/select_role">Complete your profile</Button>}
        {buyer && <Button variant="contained" component={RouterLink} to={edit('/onboarding', role)}>{seller ? 'Edit buyer details' : 'Edit profile'}</Button>}
        {seller && <Button variant="contained" component={RouterLink} to={edit('/sellersignup', role)}>{buyer ? 'Edit seller details' : 'Edit profile'}</Button>}
        {role === 'buyer' && <Button variant="outlined" component={RouterLink} to={edit('/sellersignup', 'buyer_and_seller')}>Add the seller side</Button>}
        {role === 'seller' && <Button variant="outlined" component={RouterLink} to={edit('/onboarding', 'buyer_and_seller')}>Add the buyer side</Button>}
      </Box>
    </>
  );
}

/** Change password: the current one and the new one; the server judges the new one's strength. */
function ChangePasswordForm() {
  const leadRef = useLeadToProblem();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [missing, setMissing] = useState<{ current?: string; next?: string }>({});
  const { guard, prompt: codeStep } = useSecondStep();
  const action = useAction(useMemo(() => guard(changePassword), [guard]));
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const m = { current: current ? undefined : 'Current password is required', next: next ? undefined : 'New password is required' };
    setMissing(m);
    if (m.current || m.next) return;
    if (await action.start(current, next)) {
      setCurrent('');
      setNext('');
    }
  };
  return (
    <>
      <Box component="form" ref={leadRef} noValidate aria-label="Change password" onSubmit={onSubmit} sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <ActionMessage state={action.state} done="Your password has been changed. Your other devices have been signed out." />
        <PasswordField id="current-password" label="Current password" value={current} onChange={setCurrent} error={missing.current} autoComplete="current-password" disabled={action.busy} />
        <PasswordField id="new-password" label="New password" value={next} onChange={setNext} error={missing.next} autoComplete="new-password" disabled={action.busy} />
        <Button type="submit" variant="contained" disabled={action.busy}>{action.busy ? 'SAVING...' : 'CHANGE PASSWORD'}</Button>
      </Box>
      {codeStep}
    </>
  );
}

/**
 * Delete my account: a confirmation that says what goes and asks for the
 * password. What was sent with the address goes only when it is proven.
 */
function DeleteAccount({ onDeleted, proven }: { onDeleted: () => void; proven: boolean }) {
  const leadRef = useLeadToProblem();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState('');
  const { guard, prompt: codeStep } = useSecondStep();
  const action = useAction(useMemo(() => guard(deleteMyAccount), [guard]));
  const close = () => {
    if (action.busy) return;
    setOpen(false);
    setPassword('');
    setMissing('');
    action.reset();
  };
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setMissing(password ? '' : 'Please enter your password to delete your account');
    if (!password) return;
    if (await action.start(password)) onDeleted();
  };
  return (
    <>
      <Typography>Deleting your account removes everything Salaula holds about you. It cannot be undone.</Typography>
      <Button variant="outlined" color="error" onClick={() => setOpen(true)}>Delete my account</Button>
      <Dialog open={open} onClose={close} aria-labelledby="delete-title" fullWidth maxWidth="xs">
        <Box component="form" ref={leadRef} noValidate onSubmit={onSubmit}>
          <DialogTitle id="delete-title">Delete your account?</DialogTitle>
          <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
            <Typography component="div">
              This deletes, at once and for good:
              <ul>
                <li>your account and sign-in on every device;</li>
                <li>your profile, with your photos and logos;</li>
                {proven ? (
                  <li>your waitlist sign-ups and the messages you sent us from this e-mail;</li>
                ) : (
                  <li>
                    not the messages and waitlist sign-ups sent with this e-mail address: it is not proven, so they stay (prove
                    it first to delete them too);
                  </li>
                )}
                <li>the record of what you agreed to.</li>
              </ul>
              You may want to download your data first. We will e-mail you to confirm.
            </Typography>
            {action.state.kind === 'error' && <Alert severity="error">{action.state.message}</Alert>}
            <PasswordField id="delete-password" label="Password" value={password} onChange={setPassword} error={missing || undefined} autoComplete="current-password" disabled={action.busy} />
          </DialogContent>
          <DialogActions>
            <Button onClick={close} disabled={action.busy}>Cancel</Button>
            <Button type="submit" variant="contained" color="error" disabled={action.busy}>
              {action.busy ? 'DELETING...' : 'DELETE MY ACCOUNT'}
            </Button>
          </DialogActions>
        </Box>
        {codeStep && <DialogContent>{codeStep}</DialogContent>}
      </Dialog>
    </>
  );
}

/**
 * AccountPage (/account): what Salaula holds about the signed-in person, with
 * Edit (the onboarding forms, prefilled), change password, sign out here or
 * everywhere, Download my data and Delete my account.
 */
export default function AccountPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const saved = Boolean((location.state as { saved?: boolean } | null)?.saved);
  const finished = Boolean((location.state as { finished?: boolean } | null)?.finished);
  const proven = Boolean((location.state as { proven?: boolean } | null)?.proven);
  const [profile, setProfile] = useState<SavedProfile | null>(null);
  const [loadError, setLoadError] = useState('');
  const [deleted, setDeleted] = useState(false);
  const { guard, prompt: codeStep } = useSecondStep();
  const download = useAction(useMemo(() => guard(downloadMyData), [guard]));
  const signOut = useAction(signOutOf);

  const load = useCallback(() => {
    setLoadError('');
    setProfile(null);
    fetchSavedProfile()
      .then(setProfile)
      .catch((err: Error) => setLoadError(`Could not load your account: ${err.message}`));
  }, []);
  useEffect(load, [load]);
  const [address, setAddress] = useState<MyAddress | null>(null);
  const [addressError, setAddressError] = useState('');
  const loadAddress = useCallback(() => {
    setAddressError('');
    fetchMyAddress()
      .then(setAddress)
      .catch((err: Error) => setAddressError(`Could not load what was sent with your address: ${err.message}`));
  }, []);
  useEffect(loadAddress, [loadAddress]);
  // A change made on another device: fetch the profile again, keeping the current one on screen meanwhile.
  const [liveNote, setLiveNote] = useState(false);
  const userId = useAuth().user?.id;
  useOwnProfileLive(userId, (changed) => void fetchSavedProfile().then((p) => (setProfile(p), setLiveNote(changed)), () => {}));

  if (deleted) {
    return (
      <>
        <PageHeader title="My Account" />
        <Container component="main" maxWidth="sm" sx={{ py: 3 }}>
          <Alert severity="success" role="status">
            Your account has been deleted. We have sent a confirmation to your e-mail address.
          </Alert>
          <Button component={RouterLink} to="/" sx={{ mt: 2 }}>Back to the home page</Button>
        </Container>
      </>
    );
  }

  const signOutThen = async (scope: 'local' | 'global') => {
    if (await signOut.start(scope)) navigate('/sign_up?mode=login');
  };

  return (
    <RequireAuth>
      <PageHeader title="My Account" />
      <Container component="main" maxWidth="sm" sx={{ py: 2, px: 2 }}>
        {saved && <Alert severity="success" role="status" sx={{ mb: 2 }}>Your profile has been saved.</Alert>}
        {finished && <Alert severity="info" role="status" sx={{ mb: 2 }}>Your profile is already complete: change it here with Edit profile.</Alert>}
        {proven && <Alert severity="success" role="status" sx={{ mb: 2 }}>Your e-mail address is proven.</Alert>}
        <Section title="Your profile">
          {!profile && !loadError && <Typography role="status">Loading your account...</Typography>}
          {loadError && (
            <Alert severity="error" action={<Button color="inherit" onClick={load}>Try again</Button>}>{loadError}</Alert>
          )}
          {profile && liveNote && <Typography role="status" variant="body2" color="text.secondary">Just updated from another device.</Typography>}
          {profile && <ProfileDetails p={profile} />}
        </Section>
        <Section title="Your uploaded photos">
          <MyPhotos userId={userId} />
        </Section>
        <Section title="Messages and waitlist sign-ups">
          {!address && !addressError && <Typography role="status">Loading...</Typography>}
          {addressError && (
            <Alert severity="error" action={<Button color="inherit" onClick={loadAddress}>Try again</Button>}>{addressError}</Alert>
          )}
          {address && <SentWithAddress address={address} />}
        </Section>
        <Section title="Password">
          <ChangePasswordForm />
        </Section>
        <Section title="Signing in">
          <Link component={RouterLink} to={ACCOUNT_SECURITY_PATH} sx={{ fontWeight: 700 }}>Two-step sign-in</Link>
          <ActionMessage state={signOut.state.kind === 'error' ? signOut.state : { kind: 'idle' }} done="" />
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button variant="outlined" disabled={signOut.busy} onClick={() => signOutThen('local')}>Sign out of this device</Button>
            <Button variant="outlined" disabled={signOut.busy} onClick={() => signOutThen('global')}>Sign out of every device</Button>
          </Box>
        </Section>
        <Section title="Your data">
          <Typography>Get a copy of everything Salaula holds about you, as one file (JSON).</Typography>
          {address && !address.proven && (
            <Typography variant="body2" color="text.secondary">
              The messages and waitlist sign-ups sent with your address are in it once you prove the address (above).
            </Typography>
          )}
          <ActionMessage state={download.state} done="Your data has been downloaded." />
          <Button variant="outlined" disabled={download.busy} onClick={() => download.start()}>
            {download.busy ? 'PREPARING YOUR FILE...' : 'Download my data'}
          </Button>
          {codeStep}
        </Section>
        <Section title="Delete my account">
          <DeleteAccount
            proven={address?.proven ?? false}
            onDeleted={() => {
              setDeleted(true); // shown without RequireAuth, so signing out below keeps it on screen
              forgetSession().catch((err) => console.error('Could not clear the session', err));
            }}
          />
        </Section>
      </Container>
    </RequireAuth>
  );
}
