import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button } from '../../components/ui';
import { PROGRAMS } from '../../config/constants';
import { adminGet, adminKeys, errorText, when } from './api';
import type { Referral, ReferralCount, Referrer } from './launchApi';
import { Select } from './ui/Select';

/** GET /admin/v1/referrals: the counts per program and the top referrers. */
interface Referrals {
  programs: ReferralCount[];
  top: Referrer[];
}

/** useReferrals reads the referrals of a program ('' for every waitlist); a new waitlist sign-up makes it stale. */
function useReferrals(program: string, limit: number) {
  return useQuery({
    queryKey: [...adminKeys.referrals(program), limit],
    queryFn: ({ signal }) => adminGet<Referrals>(`referrals?limit=${limit}${program ? `&program=${encodeURIComponent(program)}` : ''}`, signal),
  });
}

/** The sign-ups made through one person's link, credited or not (and why): what a founder reads to spot a farm. */
function ReferralsOf({ who }: { who: Referrer }) {
  const list = useQuery({
    queryKey: adminKeys.referralsOf(who.signupId),
    queryFn: ({ signal }) => adminGet<{ items: Referral[] }>(`referrals/${encodeURIComponent(who.signupId)}`, signal),
  });
  if (list.error) return <Alert severity="error">{errorText(list.error)}</Alert>;
  if (!list.data) return <p role="status">Loading…</p>;
  return (
    <div className="adm-table-frame">
      <table aria-label={`Sign-ups through the link of ${who.email}`} className="adm-table adm-cards">
        <thead>
          <tr>
            <th scope="col">Signed up</th>
            <th scope="col">When</th>
            <th scope="col">Credited</th>
          </tr>
        </thead>
        <tbody>
          {list.data.items.map((r) => (
            <tr key={r.signupId}>
              <td className="adm-wrapcell adm-card-full" data-label="Signed up">
                {r.email || '(unsubscribed)'}
              </td>
              <td data-label="When">{when(r.createdAt)}</td>
              <td data-label="Credited">{r.credited ? 'Yes' : `No: ${r.reason}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Referral counts per program, for the overview next to sources and campaigns. */
export function ReferralCounts({ counts }: { counts: ReferralCount[] }) {
  return (
    <div className="adm-card">
      <h3 className="adm-h3">Through personal links</h3>
      {counts.length === 0 && <p className="adm-muted">No sign-ups through links yet</p>}
      {counts.map((c) => (
        <p key={c.program} className="adm-small">
          {c.program}: {c.signups} ({c.credited} credited)
        </p>
      ))}
    </div>
  );
}

const WAITLISTS = [{ value: '', label: 'Every waitlist' }, ...Object.values(PROGRAMS).map((p) => ({ value: p, label: p }))];

/** The console's referrals: sign-ups through links per program, the top referrers, and each one's referrals. */
export function ReferralsPage() {
  const [program, setProgram] = useState('');
  const [open, setOpen] = useState<Referrer | null>(null);
  const referrals = useReferrals(program, 50);
  const data = referrals.data;
  return (
    <section aria-labelledby="referrals-title">
      <h1 id="referrals-title" className="adm-h1">
        Referrals
      </h1>
      {referrals.error && <Alert severity="error">{errorText(referrals.error)}</Alert>}
      {data && <ReferralCounts counts={data.programs} />}
      <div style={{ margin: '16px 0' }}>
        <Select label="Waitlist" value={program} onChange={setProgram} options={WAITLISTS} className="adm-wide" />
      </div>
      <div className="adm-table-frame">
        <table aria-label="Top referrers" className="adm-table adm-cards">
          <thead>
            <tr>
              <th scope="col">Person</th>
              <th scope="col">Waitlist</th>
              <th scope="col" className="adm-num">
                Referrals
              </th>
              <th scope="col" className="adm-num">
                Credited
              </th>
              <th scope="col">Last</th>
            </tr>
          </thead>
          <tbody>
            {data?.top.map((r) => (
              <tr key={r.signupId} className={open?.signupId === r.signupId ? 'adm-selected' : undefined}>
                <td className="adm-wrapcell adm-card-full" data-label="Person">
                  <Button
                    size="small"
                    className="adm-cell-btn"
                    aria-expanded={open?.signupId === r.signupId}
                    onClick={() => setOpen(open?.signupId === r.signupId ? null : r)}
                  >
                    {r.email || '(unsubscribed)'}
                  </Button>
                </td>
                <td data-label="Waitlist">{r.program}</td>
                <td className="adm-num" data-label="Referrals">
                  {r.referrals}
                </td>
                <td className="adm-num" data-label="Credited">
                  {r.credited}
                </td>
                <td data-label="Last">{when(r.lastAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {open && (
        <div className="adm-gap-t">
          <h2 className="adm-h2">Sign-ups through the link of {open.email}</h2>
          <ReferralsOf who={open} />
        </div>
      )}
    </section>
  );
}

/** The overview's card of sign-ups through personal links (its counts stay as they were when a load fails; the overview reports its own errors). */
export function OverviewReferrals() {
  return <ReferralCounts counts={useReferrals('', 1).data?.programs ?? []} />;
}
