import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/ui';
import { PROGRAMS } from '../../config/constants';
import { count } from '../../lib/words';
import { AnalyticsPanel, DayTable } from './AnalyticsPanel';
import { adminGet, adminKeys, errorText, when, type Overview } from './api';
import { OverviewReferrals } from './ReferralsPage';
import { LABELS, useSettings } from './SettingsPage';
import { CHART_COLORS, LineChart } from './ui/LineChart';

/** UnsetSettings says which contact details are not set (so not shown on the site). */
function UnsetSettings() {
  const unset = useSettings().data?.unset ?? [];
  if (unset.length === 0) return null;
  return (
    <Alert severity="info" className="adm-gap-b">
      Not set yet, so not shown on the site: {unset.map((k) => LABELS[k]?.[0] ?? k).join(', ')}.{' '}
      <RouterLink to="/admin/settings">Set them in Settings</RouterLink>.
    </Alert>
  );
}

/** How often the overview reloads itself, besides live changes. */
export const OVERVIEW_REFRESH_MS = 30_000;

function StatCard({ label, value, hint }: { label: string; value: number; hint?: string }) {
  return (
    <div className="adm-card" role="group" aria-label={label}>
      <h2 className="adm-small adm-muted" style={{ fontWeight: 400 }}>
        {label}
      </h2>
      <p className="adm-stat">{value.toLocaleString('en-GB')}</p>
      {hint && <p className="adm-small adm-muted">{hint}</p>}
    </div>
  );
}

function Counts({ title, rows }: { title: string; rows: { name: string; count: number }[] }) {
  return (
    <div className="adm-card">
      <h3 className="adm-h3">{title}</h3>
      {rows.length === 0 && <p className="adm-muted">No sign-ups yet</p>}
      <ul className="adm-list">
        {rows.map((r) => (
          <li key={r.name}>
            <span>{r.name || '(direct)'}</span>
            <span>{r.count}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The last 90 days as lines, with the same figures in a table. */
function DailyLines({ o }: { o: Overview }) {
  const headingId = useId();
  const programs = Object.values(PROGRAMS);
  const series = [
    { label: 'Accounts', values: o.daily.map((d) => d.accounts) },
    { label: 'Profiles completed', values: o.daily.map((d) => d.profilesCompleted) },
    ...programs.map((p) => ({ label: p, values: o.daily.map((d) => d.waitlist[p] ?? 0) })),
    { label: 'Messages', values: o.daily.map((d) => d.messages) },
  ].map((s, i) => ({ ...s, color: CHART_COLORS[i % CHART_COLORS.length] }));
  return (
    <figure className="adm-card adm-figure adm-gap-b" aria-labelledby={headingId} style={{ marginBottom: 24 }}>
      <h2 id={headingId} className="adm-h3">
        The last 90 days
      </h2>
      <LineChart days={o.daily.map((d) => d.date.slice(5))} series={series} />
      <DayTable label="The last 90 days per day" head={['Day', ...series.map((s) => s.label)]} rows={o.daily.map((d, i) => [d.date, ...series.map((s) => s.values[i])])} />
    </figure>
  );
}

/** The console's first page: totals, the last 90 days, sources and the newest events; reloads on live changes and every 30 s. */
export function OverviewPage() {
  const overview = useQuery({
    queryKey: adminKeys.overview,
    queryFn: ({ signal }) => adminGet<Overview>('overview', signal),
    refetchInterval: OVERVIEW_REFRESH_MS,
  });
  const o = overview.data;
  const error = overview.error ? errorText(overview.error) : '';
  if (error && !o) return <Alert severity="error">{error}</Alert>;
  if (!o) return <p role="status">Loading the overview…</p>;
  const t = o.totals;
  const wl = (p: string) => t.waitlist[p] ?? { subscribed: 0, unsubscribed: 0 };
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title" className="adm-h1" style={{ marginBottom: 8 }}>
        Overview
      </h1>
      <p className="adm-small adm-muted adm-gap-b">As of {when(o.asOf)}; updates as changes arrive, and every 30 seconds.</p>
      {error && <Alert severity="warning">{error}</Alert>}
      <UnsetSettings />
      <div className="adm-grid">
        <StatCard label="Accounts" value={t.accounts} hint={count(t.operators, 'operator')} />
        <StatCard label="Onboarding unfinished" value={t.onboardingUnfinished} />
        <StatCard label="Buyers" value={t.profilesByRole.buyer ?? 0} />
        <StatCard label="Sellers" value={t.profilesByRole.seller ?? 0} />
        <StatCard label="Buyers and sellers" value={t.profilesByRole.buyer_and_seller ?? 0} />
        <StatCard label="Upcycling Initiative sign-ups" value={wl(PROGRAMS.upcycling).subscribed} hint={`${wl(PROGRAMS.upcycling).unsubscribed} unsubscribed`} />
        <StatCard
          label="Wardrobe Clearance Program sign-ups"
          value={wl(PROGRAMS.wardrobeClearance).subscribed}
          hint={`${wl(PROGRAMS.wardrobeClearance).unsubscribed} unsubscribed`}
        />
        <StatCard label="Open messages" value={t.messages.open} hint={`${t.messages.handled} handled`} />
      </div>
      <DailyLines o={o} />
      <AnalyticsPanel />
      <h2 className="adm-h2">Sign-ups by source</h2>
      <div className="adm-grid adm-grid-1">
        <Counts title="Campaign (UTM source / campaign)" rows={o.sources.campaigns.map((c) => ({ name: [c.source, c.campaign].filter(Boolean).join(' / '), count: c.count }))} />
        <Counts title="Referrer" rows={o.sources.referrers} />
        <Counts title="Page" rows={o.sources.pages} />
        <OverviewReferrals />
      </div>
      <h2 className="adm-h2">Newest</h2>
      <ul className="adm-list adm-list-2" aria-label="Newest events">
        {o.newest.map((e) => (
          <li key={e.kind + e.id}>
            <p>{`${{ waitlist: 'Waitlist sign-up', account: 'New account', message: 'Message' }[e.kind] ?? e.kind}: ${e.title}`}</p>
            <p className="adm-small adm-muted">{[e.detail, when(e.at)].filter(Boolean).join(' · ')}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
