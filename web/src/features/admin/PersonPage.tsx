import { useEffect, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { count } from '../../lib/words';
import { adminGet, adminSend, when, type PersonDetail } from './api';

/** What the person page says of an account that never proved its address. */
const PROVEN_NO =
  "No: the waitlist sign-ups and contact messages sent with this address may be someone else's. Check who asks before acting on them.";

/** One person: the account, the whole profile with its photos, and sign-out everywhere. */
export function PersonPage() {
  const { id = '' } = useParams();
  const [p, setP] = useState<PersonDetail | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [tick, setTick] = useState(0);
  useEffect(() => {
    adminGet<PersonDetail>(`people/${encodeURIComponent(id)}`)
      .then(setP)
      .catch((e: Error) => setError(e.message));
  }, [id, tick]);
  const signOut = async () => {
    if (!p || !window.confirm(`End every session of ${p.email}? They will have to sign in again on every device.`)) return;
    try {
      const r = await adminSend<{ sessionsEnded: number }>('POST', `people/${encodeURIComponent(id)}/sign-out`);
      setNotice(`${count(r.sessionsEnded, 'session')} ended.`);
      setTick((t) => t + 1);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  if (error && !p) return <Alert severity="error">{error}</Alert>;
  if (!p) return <Typography role="status">Loading…</Typography>;
  const pr = p.profile;
  const fields: [string, string][] = [
    ['Joined', when(p.createdAt)],
    ['E-mail confirmed', p.emailConfirmedAt ? when(p.emailConfirmedAt) : 'No'],
    ['E-mail proven', p.emailProvenAt ? when(p.emailProvenAt) : PROVEN_NO],
    ['Last sign-in', when(p.lastSignInAt)],
    ['Open sessions', String(p.activeSessions)],
    ['Operator', p.isOperator ? 'Yes' : 'No'],
  ];
  if (pr) {
    fields.push(
      ['Role', pr.role ?? ''],
      ['Full name', pr.full_name],
      ['Location', pr.location],
      ['Age', pr.age == null ? '' : String(pr.age)],
      ['Phone number', pr.phone_number],
      ['Gender', pr.gender],
      ['Height', pr.height],
      ['Waist size', pr.waist_size],
      ['Style', pr.style_description],
      ['Clothing aesthetics', pr.clothing_aesthetics.join(', ')],
      ['Inspiration', pr.inspiration],
      ['Wants the clearance program', pr.wants_clearance_program ? 'Yes' : 'No'],
      ['Business name', pr.business_name],
      ['Registration number', pr.registration_number ?? ''],
      ['Business mode', pr.business_mode],
    );
  }
  return (
    <Box component="section" aria-labelledby="person-title">
      <Link component={RouterLink} to="/admin/people">
        ← People
      </Link>
      <Typography id="person-title" variant="h5" component="h1" sx={{ my: 1, overflowWrap: 'anywhere' }}>
        {p.email}
      </Typography>
      {notice && <Alert severity="success">{notice}</Alert>}
      {error && <Alert severity="error">{error}</Alert>}
      {!pr && <Typography color="text.secondary">No profile yet: onboarding not finished.</Typography>}
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '220px 1fr' }, gap: 0.5, '& dd': { m: 0, mb: 1 } }}>
        {fields
          .filter(([, v]) => v !== '')
          .map(([k, v]) => (
            <Box key={k} sx={{ display: 'contents' }}>
              <Typography component="dt" sx={{ fontWeight: 700 }}>
                {k}
              </Typography>
              <Typography component="dd">{v}</Typography>
            </Box>
          ))}
      </Box>
      <Typography component="h2" variant="h6" sx={{ mt: 2 }}>
        Photos and logos
      </Typography>
      {p.images.length === 0 && <Typography color="text.secondary">No uploads</Typography>}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, my: 1 }}>
        {p.images.map((img) => (
          <a key={img.key} href={img.url} target="_blank" rel="noreferrer">
            <img src={img.url} alt={`Upload ${img.key.split('/').pop()}`} width={120} height={120} loading="lazy" style={{ objectFit: 'cover', borderRadius: 4 }} />
          </a>
        ))}
      </Box>
      <Button variant="contained" color="error" onClick={signOut} sx={{ mt: 2 }}>
        Sign out everywhere
      </Button>
    </Box>
  );
}
