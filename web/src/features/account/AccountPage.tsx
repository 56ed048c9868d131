import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, ButtonLink, TextLink } from '../../components/ui';
import { Dialog, DialogActions } from '../../components/ui/Dialog';
import { PageHeader } from '../../components/PageHeader';
import { ACCOUNT_SECURITY_PATH, AUTH_ROUTES, STYLE_LABEL } from '../../config/constants';
import { RequireAuth } from '../auth/RequireAuth';
import { PasswordField } from '../auth/PasswordField';
import type { SavedProfile } from '../../lib/profile';
import { messageOf } from '../../lib/functionError';
import { withQueries } from '../../lib/QueryProvider';
import { changePassword, deleteMyAccount, downloadMyData, forgetSession, signOutOf } from './api';
import { accountKeys, useMyAddress, useSavedProfile } from './queries';
import { SentWithAddress } from './SentWithAddress';
import { MyPhotos } from './MyPhotos';
import { useAction, type ActionState } from './useAction';
import { useSecondStep } from '../auth/useSecondStep';
import { useOwnProfileLive } from './liveProfile';
import { useAuth } from '../../lib/auth';
import { localPhone } from '../../lib/words';
import { sizedImageUrl } from '../../lib/images';
import { useLeadToProblem } from '../../lib/leadToProblem';

/** How each role reads on the page. */
const ROLE_LABELS: Record<string, string> = { buyer: 'Buyer', seller: 'Seller', buyer_and_seller: 'Buyer and seller' };

/** The side, in CSS pixels, of a saved photo's or logo's thumbnail. */
const THUMB_PX = 96;

/** A section of the page with its heading. */
function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `account-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="acct-section">
      <h2 id={id} className="acct-h2">
        {title}
      </h2>
      {children}
    </section>
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
    <div className="acct-field">
      <dt>{label}</dt>
      <dd>{value === '' || value == null ? '–' : value}</dd>
    </div>
  );
}

/** Thumbnails of saved images, each downloaded at the size it is shown. */
function Pictures({ urls, what }: { urls: string[]; what: string }) {
  if (urls.length === 0) return <Field label={`${what}s`} value="None" />;
  return (
    <div>
      <p className="fk-p fk-strong fk-muted">{what}s</p>
      <ul className="thumbs">
        {urls.map((u, i) => (
          <li key={u}>
            <img src={sizedImageUrl(u, THUMB_PX)} alt={`${what} ${i + 1}`} width={THUMB_PX} height={THUMB_PX} loading="lazy" className="thumb" />
          </li>
        ))}
      </ul>
    </div>
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
      <dl className="acct-dl">
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
            <Field label={STYLE_LABEL} value={p.style_description} />
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
      </dl>
      {buyer && <Pictures urls={p.body_photo_urls ?? []} what="Photo" />}
      {seller && <Pictures urls={p.logo_urls ?? []} what="Logo" />}
      <div className="acct-row">
        {!role && <ButtonLink variant="solid" to="/select_role">Complete your profile</ButtonLink>}
        {buyer && <ButtonLink variant="solid" to={edit('/onboarding', role)}>{seller ? 'Edit buyer details' : 'Edit profile'}</ButtonLink>}
        {seller && <ButtonLink variant="solid" to={edit('/sellersignup', role)}>{buyer ? 'Edit seller details' : 'Edit profile'}</ButtonLink>}
        {role === 'buyer' && <ButtonLink variant="outline" to={edit('/sellersignup', 'buyer_and_seller')}>Add the seller side</ButtonLink>}
        {role === 'seller' && <ButtonLink variant="outline" to={edit('/onboarding', 'buyer_and_seller')}>Add the buyer side</ButtonLink>}
      </div>
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
      <form ref={leadRef} noValidate aria-label="Change password" onSubmit={onSubmit} className="acct-form">
        <ActionMessage state={action.state} done="Your password has been changed. Your other devices have been signed out." />
        <PasswordField id="current-password" label="Current password" value={current} onChange={setCurrent} error={missing.current} autoComplete="current-password" disabled={action.busy} />
        <PasswordField id="new-password" label="New password" value={next} onChange={setNext} error={missing.next} autoComplete="new-password" disabled={action.busy} />
        <Button type="submit" variant="solid" disabled={action.busy}>{action.busy ? 'SAVING...' : 'CHANGE PASSWORD'}</Button>
      </form>
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
      <p className="fk-p">Deleting your account removes everything Salaula holds about you. It cannot be undone.</p>
      <div>
        <Button variant="outline" color="danger" onClick={() => setOpen(true)}>Delete my account</Button>
      </div>
      <Dialog open={open} onOpenChange={(o) => (o ? setOpen(true) : close())} title="Delete your account?">
        <form ref={leadRef} noValidate onSubmit={onSubmit} className="acct-form">
          <div>
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
          </div>
          {action.state.kind === 'error' && <Alert severity="error">{action.state.message}</Alert>}
          <PasswordField id="delete-password" label="Password" value={password} onChange={setPassword} error={missing || undefined} autoComplete="current-password" disabled={action.busy} />
          <DialogActions>
            <Button onClick={close} disabled={action.busy}>Cancel</Button>
            <Button type="submit" variant="solid" color="danger" disabled={action.busy}>
              {action.busy ? 'DELETING...' : 'DELETE MY ACCOUNT'}
            </Button>
          </DialogActions>
        </form>
        {codeStep}
      </Dialog>
    </>
  );
}

function Account() {
  const navigate = useNavigate();
  const location = useLocation();
  const saved = Boolean((location.state as { saved?: boolean } | null)?.saved);
  const finished = Boolean((location.state as { finished?: boolean } | null)?.finished);
  const proven = Boolean((location.state as { proven?: boolean } | null)?.proven);
  const queries = useQueryClient();
  const [deleted, setDeleted] = useState(false);
  const userId = useAuth().user?.id;
  const profile = useSavedProfile(userId, !deleted);
  const address = useMyAddress(userId, !deleted);
  const { guard, prompt: codeStep } = useSecondStep();
  const download = useAction(useMemo(() => guard(downloadMyData), [guard]));
  const signOut = useAction(signOutOf);
  // A change made on another device: the profile is fetched again, the current one staying on screen meanwhile.
  const [liveNote, setLiveNote] = useState(false);
  useOwnProfileLive(userId, (changed) => {
    void queries.invalidateQueries({ queryKey: accountKeys.profile() }).then(() => setLiveNote(changed));
  });

  if (deleted) {
    return (
      <>
        <PageHeader title="My Account" />
        <main className="ui-main">
          <Alert severity="success" role="status">
            Your account has been deleted. We have sent a confirmation to your e-mail address.
          </Alert>
          <ButtonLink to="/" className="acct-back">Back to the home page</ButtonLink>
        </main>
      </>
    );
  }

  const signOutThen = async (scope: 'local' | 'global') => {
    if (await signOut.start(scope)) navigate(AUTH_ROUTES.signIn);
  };
  const loadError = profile.isError ? `Could not load your account: ${messageOf(profile.error)}` : '';
  const addressError = address.isError ? `Could not load what was sent with your address: ${messageOf(address.error)}` : '';

  return (
    <RequireAuth>
      <PageHeader title="My Account" />
      <main className="ui-main">
        {saved && <Alert severity="success" role="status" className="acct-notice">Your profile has been saved.</Alert>}
        {finished && <Alert severity="info" role="status" className="acct-notice">Your profile is already complete: change it here with Edit profile.</Alert>}
        {proven && <Alert severity="success" role="status" className="acct-notice">Your e-mail address is proven.</Alert>}
        <Section title="Your profile">
          {profile.isPending && <p className="fk-p" role="status">Loading your account...</p>}
          {loadError && (
            <Alert severity="error" action={<Button color="inherit" onClick={() => void profile.refetch()}>Try again</Button>}>{loadError}</Alert>
          )}
          {profile.data && liveNote && <p role="status" className="fk-body2 fk-muted">Just updated from another device.</p>}
          {profile.data && <ProfileDetails p={profile.data} />}
        </Section>
        <Section title="Your uploaded photos">
          <MyPhotos userId={userId} />
        </Section>
        <Section title="Messages and waitlist sign-ups">
          {address.isPending && <p className="fk-p" role="status">Loading...</p>}
          {addressError && (
            <Alert severity="error" action={<Button color="inherit" onClick={() => void address.refetch()}>Try again</Button>}>{addressError}</Alert>
          )}
          {address.data && <SentWithAddress address={address.data} />}
        </Section>
        <Section title="Password">
          <ChangePasswordForm />
        </Section>
        <Section title="Signing in">
          <TextLink to={ACCOUNT_SECURITY_PATH} className="acct-strong-link">Two-step sign-in</TextLink>
          <ActionMessage state={signOut.state.kind === 'error' ? signOut.state : { kind: 'idle' }} done="" />
          <div className="acct-row">
            <Button variant="outline" disabled={signOut.busy} onClick={() => signOutThen('local')}>Sign out of this device</Button>
            <Button variant="outline" disabled={signOut.busy} onClick={() => signOutThen('global')}>Sign out of every device</Button>
          </div>
        </Section>
        <Section title="Your data">
          <p className="fk-p">Get a copy of everything Salaula holds about you, as one file (JSON).</p>
          {address.data && !address.data.proven && (
            <p className="fk-body2 fk-muted">
              The messages and waitlist sign-ups sent with your address are in it once you prove the address (above).
            </p>
          )}
          <ActionMessage state={download.state} done="Your data has been downloaded." />
          <div>
            <Button variant="outline" disabled={download.busy} onClick={() => download.start()}>
              {download.busy ? 'PREPARING YOUR FILE...' : 'Download my data'}
            </Button>
          </div>
          {codeStep}
        </Section>
        <Section title="Delete my account">
          <DeleteAccount
            proven={address.data?.proven ?? false}
            onDeleted={() => {
              setDeleted(true); // shown without RequireAuth, so signing out below keeps it on screen
              forgetSession().catch((err) => console.error('Could not clear the session', err));
            }}
          />
        </Section>
      </main>
    </RequireAuth>
  );
}

/**
 * AccountPage (/account): what Salaula holds about the signed-in person, with
 * Edit (the onboarding forms, prefilled), change password, sign out here or
 * everywhere, Download my data and Delete my account.
 */
export default withQueries(Account);
