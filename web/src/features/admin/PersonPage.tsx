import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button } from '../../components/ui';
import { STYLE_LABEL } from '../../config/constants';
import { count, localPhone } from '../../lib/words';
import { sizedImageUrl } from '../../lib/images';
import { adminGet, adminKeys, adminSend, errorText, when, type PersonDetail } from './api';
import { ConfirmDialog } from './ui/ConfirmDialog';

/** What the person page says of an account that never proved its address. */
const PROVEN_NO =
  "No: the waitlist sign-ups and contact messages sent with this address may be someone else's. Check who asks before acting on them.";

/** The side, in CSS pixels, of an upload's thumbnail (its link opens the whole photo). */
const PHOTO_PX = 120;

/** One person: the account, the whole profile with its photos, and sign-out everywhere. */
export function PersonPage() {
  const { id = '' } = useParams();
  const client = useQueryClient();
  const person = useQuery({
    queryKey: adminKeys.person(id),
    queryFn: ({ signal }) => adminGet<PersonDetail>(`people/${encodeURIComponent(id)}`, signal),
  });
  const [asking, setAsking] = useState(false);
  const signOut = useMutation({
    mutationFn: () => adminSend<{ sessionsEnded: number }>('POST', `people/${encodeURIComponent(id)}/sign-out`),
    onSuccess: () =>
      Promise.all([adminKeys.person(id), adminKeys.list('audit')].map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
  const p = person.data;
  const loadError = person.error ? errorText(person.error) : '';
  if (loadError && !p) return <Alert severity="error">{loadError}</Alert>;
  if (!p) return <p role="status">Loading…</p>;
  const notice = signOut.data ? `${count(signOut.data.sessionsEnded, 'session')} ended.` : '';
  const error = signOut.error ? errorText(signOut.error) : loadError;
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
      ['Phone number', localPhone(pr.phone_number)],
      ['Gender', pr.gender],
      ['Height', pr.height],
      ['Waist size', pr.waist_size],
      [STYLE_LABEL, pr.style_description],
      ['Clothing aesthetics', pr.clothing_aesthetics.join(', ')],
      ['Inspiration', pr.inspiration],
      ['Wants the clearance program', pr.wants_clearance_program ? 'Yes' : 'No'],
      ['Business name', pr.business_name],
      ['Registration number', pr.registration_number ?? ''],
      ['Business mode', pr.business_mode],
    );
  }
  return (
    <section aria-labelledby="person-title">
      <RouterLink className="adm-link" to="/admin/people">
        ← People
      </RouterLink>
      <h1 id="person-title" className="adm-h1" style={{ margin: '8px 0' }}>
        {p.email}
      </h1>
      {notice && <Alert severity="success">{notice}</Alert>}
      {error && <Alert severity="error">{error}</Alert>}
      {!pr && <p className="adm-muted">No profile yet: onboarding not finished.</p>}
      <dl className="adm-dl">
        {fields
          .filter(([, v]) => v !== '')
          .map(([k, v]) => (
            <div key={k} style={{ display: 'contents' }}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
      </dl>
      <h2 className="adm-h2 adm-gap-t">Photos and logos</h2>
      {p.images.length === 0 && <p className="adm-muted">No uploads</p>}
      <div className="adm-photos">
        {p.images.map((img) => (
          <a key={img.key} href={img.url} target="_blank" rel="noreferrer">
            <img src={sizedImageUrl(img.url, PHOTO_PX)} alt={`Upload ${img.key.split('/').pop()}`} width={PHOTO_PX} height={PHOTO_PX} loading="lazy" />
          </a>
        ))}
      </div>
      <Button variant="solid" className="adm-danger adm-gap-t" onClick={() => setAsking(true)}>
        Sign out everywhere
      </Button>
      <ConfirmDialog
        open={asking}
        question={`End every session of ${p.email}? They will have to sign in again on every device.`}
        confirm="Sign out everywhere"
        danger
        onConfirm={() => signOut.mutate()}
        onClose={() => setAsking(false)}
      />
    </section>
  );
}
