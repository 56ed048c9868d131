import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { Alert, Button, FormIcon } from '../../components/ui';
import { Icon } from '../../components/icons';
import { AUTH_ROUTES } from '../../config/constants';
import type { FieldErrors } from '../../lib/validation';
import { useAuth } from './AuthProvider';
import { EmailNotConfirmed, fetchMyProfile, getCurrentSession, resendConfirmation, signIn, signOut, signUp } from './api';
import { safeNextPath, validateCredentials } from './credentials';
import { BusyMessage } from './BusyMessage';
import { EmailField } from './EmailField';
import { ForgotPasswordForm } from './ForgotPasswordForm';
import { PasswordField } from './PasswordField';
import { SecondStepForm } from './SecondStepForm';
import { needsSecondStep } from './mfa';
import { NeedsConnection } from '../../components/ConnectionNotices';
import { SESSION_ENDED_NOTICE, sessionEnded, sessionEndedShown } from '../../lib/sessionEnded';
import { useLeadToProblem } from '../../lib/leadToProblem';
import { getSupabase, hasSupabaseClient, mayHaveSession } from '../../lib/supabase';
import { useDocumentTitle } from '../../lib/documentTitle';
import '../../styles/form-pages.css';

type Mode = 'login' | 'signup' | 'forgot' | 'code';

/** Router state another page may pass to /sign_up: a green notice to show (e.g. after a password reset). */
export interface SignInNotice {
  notice?: string;
}

const SOCIAL_PROVIDERS = [
  { name: 'Google', icon: <FormIcon name="google" /> },
  { name: 'Facebook', icon: <Icon name="facebook" /> },
  { name: 'Apple', icon: <FormIcon name="apple" /> },
] as const;

/**
 * warmUp starts downloading the sign-in client (supabase-js) when the visitor
 * starts using the form, so it is usually there by the time they submit.
 */
function warmUp() {
  // Offline it could not arrive: the submit tries again once the connection is back.
  if (!hasSupabaseClient() && navigator.onLine) getSupabase().catch(() => {}); // a submit shows the error
}

/** messageOf turns anything thrown into the text to show. */
function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * SignInPage is /sign_up: one screen with two modes, sign in ('WELCOME BACK!')
 * and create an account ('JOIN US!'), plus a forgotten-password view. On load
 * it checks for a session and sends a signed-in user on (spec section 4).
 * When this browser holds no session (lib/supabase mayHaveSession) there is
 * none to check: the form shows at once, without supabase-js, which loads
 * when the visitor starts using the form (or submits it).
 * ?next=/path (set by RequireAuth) is where a successful sign-in or sign-up
 * goes instead of the usual page; ?mode=login opens it in sign-in mode.
 */
export default function SignInPage() {
  const leadRef = useLeadToProblem();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const { login } = useAuth();
  const next = safeNextPath(params.get('next'));
  const [endedElsewhere] = useState(sessionEnded);
  const notice = (location.state as SignInNotice | null)?.notice ?? (endedElsewhere ? SESSION_ENDED_NOTICE : '');
  // Said once: a later visit to this page does not repeat it.
  useEffect(() => {
    if (endedElsewhere) sessionEndedShown();
  }, [endedElsewhere]);
  // An e-mailed link the service refused comes back as /sign_up#error_description=...
  const linkError = new URLSearchParams(location.hash.replace(/^#/, '')).get('error_description') ?? '';

  const [checking, setChecking] = useState(() => hasSupabaseClient() || mayHaveSession());
  const [mode, setMode] = useState<Mode>(
    params.get('mode') === 'login' || params.has('next') || notice || linkError ? 'login' : 'signup',
  );
  useDocumentTitle(mode === 'signup' ? 'Create an account' : 'Sign in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<'email' | 'password'>>({});
  const [error, setError] = useState(linkError);
  const [success, setSuccess] = useState(notice);
  const [loading, setLoading] = useState(false);
  /** The address whose account waits for its confirmation link ('' when none): it may ask for the link again. */
  const [unconfirmed, setUnconfirmed] = useState('');
  const [resending, setResending] = useState(false);

  async function resend() {
    if (resending) return;
    setResending(true);
    setError('');
    setSuccess('');
    try {
      await resendConfirmation(unconfirmed);
      setSuccess(`We have sent the confirmation link to ${unconfirmed} again. Open it, then sign in.`);
    } catch (err) {
      setError(messageOf(err));
    }
    setResending(false);
  }

  // On load: a signed-in user is sent on; a failed profile call signs out and shows the form.
  useEffect(() => {
    if (!checking) return; // no session stored: nothing to check
    let cancelled = false;
    (async () => {
      let hasSession = false;
      try {
        hasSession = (await getCurrentSession()) !== null;
      } catch (err) {
        console.error('Could not read the session', err);
      }
      if (cancelled) return;
      if (!hasSession) {
        setChecking(false);
        return;
      }
      try {
        // Signed in with the password but not yet with the code: ask for it.
        if (await needsSecondStep()) {
          if (!cancelled) {
            setMode('code');
            setChecking(false);
          }
          return;
        }
      } catch (err) {
        console.error('Could not read the assurance level', err);
      }
      try {
        const { role } = await fetchMyProfile();
        if (cancelled) return;
        if (role) {
          login();
          navigate(next ?? AUTH_ROUTES.thanks, { replace: true });
        } else {
          navigate(next ?? AUTH_ROUTES.selectRole, { replace: true });
        }
      } catch (err) {
        console.error('Could not fetch the profile of the stored session', err);
        await signOut();
        if (!cancelled) setChecking(false);
      }
    })();
    return () => {
      cancelled = true;
    };
    // Runs once, on load.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function switchMode(to: Mode) {
    setUnconfirmed('');
    setMode(to);
    setEmail('');
    setPassword('');
    setFieldErrors({});
    setError('');
    setSuccess('');
  }

  /** The forgotten-password view keeps the e-mail already typed. */
  function openForgotPassword() {
    setMode('forgot');
    setPassword('');
    setFieldErrors({});
    setError('');
    setSuccess('');
  }

  async function handleSubmit(e: FormEvent) {
    e.preventDefault();
    if (loading) return;
    const problems = validateCredentials(email, password);
    setFieldErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setError('');
    setSuccess('');
    setLoading(true);
    if (mode === 'signup') {
      try {
        const { user, session } = await signUp(email, password);
        if (user && session) {
          login();
          navigate(next ?? AUTH_ROUTES.selectRole, { replace: true });
          return;
        }
        // E-mail confirmation is on: the account waits for its link.
        setMode('login');
        setPassword('');
        setSuccess(`We have sent a confirmation link to ${email.trim()}. Open it, then sign in.`);
        setUnconfirmed(email.trim());
      } catch (err) {
        setError(messageOf(err));
      }
      setLoading(false);
      return;
    }
    setUnconfirmed('');
    try {
      await signIn(email, password);
      if (await needsSecondStep()) {
        setMode('code');
        setPassword('');
        setLoading(false);
        return;
      }
    } catch (err) {
      setError(messageOf(err));
      if (err instanceof EmailNotConfirmed) setUnconfirmed(email.trim());
      setLoading(false);
      return;
    }
    await finishSignIn();
  }

  /** After sign-in (and the code, when asked): on to the next page; throws what to show when the profile cannot be read. */
  async function goOn() {
    login();
    try {
      const { role } = await fetchMyProfile();
      navigate(next ?? (role ? AUTH_ROUTES.index : AUTH_ROUTES.selectRole), { replace: true });
    } catch (err) {
      throw new Error(`Login successful, but could not fetch profile: ${messageOf(err)}`, { cause: err });
    }
  }

  async function finishSignIn() {
    try {
      await goOn();
    } catch (err) {
      setError(messageOf(err));
      setLoading(false);
    }
  }

  if (checking) {
    return (
      <main className="auth-main auth-main-busy">
        <BusyMessage text="Checking your session..." />
      </main>
    );
  }

  const isLogin = mode === 'login';
  return (
    <main className="auth-main">
      <div ref={leadRef} className="fk-paper fk-paper-line auth-card" onFocusCapture={warmUp} onPointerDownCapture={warmUp}>
        {mode === 'forgot' ? (
          <ForgotPasswordForm initialEmail={email} onBack={() => switchMode('login')} />
        ) : mode === 'code' ? (
          <SecondStepForm
            onVerified={goOn}
            onOtherAccount={async () => {
              await signOut();
              switchMode('login');
            }}
          />
        ) : (
          <div className="fk-stack fk-stack-l">
            <div>
              <h1 className="fk-h1">{isLogin ? 'WELCOME BACK!' : 'JOIN US!'}</h1>
              <p className="fk-sub">
                {isLogin
                  ? 'Sign in to pick up where you left off.'
                  : 'Create your account to shop and sell pre-loved fashion.'}
              </p>
            </div>
            <NeedsConnection what={isLogin ? 'Signing in' : 'Creating an account'} />
            {error && <Alert severity="error">{error}</Alert>}
            {/* role="alert" as before: the notice is read out at once (e.g. after a password reset) */}
            {success && (
              <Alert severity="success" role="alert">
                {success}
              </Alert>
            )}
            {unconfirmed && (
              <Button variant="outline" onClick={resend} disabled={resending}>
                {resending ? 'Sending...' : 'Send the confirmation e-mail again'}
              </Button>
            )}
            <form noValidate onSubmit={handleSubmit} aria-label={isLogin ? 'Sign in' : 'Create an account'} className="fk-stack">
              <EmailField
                id="email"
                value={email}
                onChange={(v) => {
                  setEmail(v);
                  setFieldErrors((f) => ({ ...f, email: undefined }));
                }}
                error={fieldErrors.email}
                disabled={loading}
              />
              <PasswordField
                key={mode}
                id="password"
                label="Password"
                value={password}
                onChange={(v) => {
                  setPassword(v);
                  setFieldErrors((f) => ({ ...f, password: undefined }));
                }}
                error={fieldErrors.password}
                autoComplete={isLogin ? 'current-password' : 'new-password'}
                disabled={loading}
              />
              {isLogin && (
                <div className="auth-forgot">
                  <Button variant="link" onClick={openForgotPassword}>
                    Forgot password?
                  </Button>
                </div>
              )}
              <Button type="submit" variant="solid" size="large" busy={loading} fullWidth>
                {isLogin ? 'SIGN IN' : 'CREATE AN ACCOUNT'}
              </Button>
            </form>
            <p className="auth-switch">
              {isLogin ? "Don't have an account? " : 'Already have an account? '}
              <Button variant="link" onClick={() => switchMode(isLogin ? 'signup' : 'login')} disabled={loading}>
                {isLogin ? 'Sign up' : 'Sign in'}
              </Button>
            </p>
            <div role="separator" className="fk-divider">
              or
            </div>
            <div className="fk-stack fk-stack-s" aria-describedby="social-soon">
              {SOCIAL_PROVIDERS.map(({ name, icon }) => (
                <Button key={name} variant="outline" startIcon={icon} disabled fullWidth>
                  Continue with {name}
                </Button>
              ))}
              <p id="social-soon" className="fk-caption center">
                Signing in with Google, Facebook or Apple is coming soon.
              </p>
            </div>
          </div>
        )}
      </div>
    </main>
  );
}
