import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { LineChart } from '@mui/x-charts/LineChart';
import { PROGRAMS } from '../../config/constants';
import { AnalyticsPanel } from './AnalyticsPanel';
import { adminGet, when, type Overview } from './api';
import { OVERVIEW_TABLES, useLiveTick } from './live';
import { OverviewReferrals } from './ReferralsPage';
import { LABELS } from './SettingsPage';
import { count } from '../../lib/words';
import { Link as RouterLink } from 'react-router';

/** UnsetSettings says which contact details are not set (so not shown on the site). */
function UnsetSettings() {
  const [unset, setUnset] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    adminGet<{ unset?: string[] }>('settings')
      .then((v) => live && setUnset(v.unset ?? []))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);
  if (unset.length === 0) return null;
  return (
    <Alert severity="info" sx={{ mb: 2 }}>
      Not set yet, so not shown on the site: {unset.map((k) => LABELS[k]?.[0] ?? k).join(', ')}.{' '}
      <RouterLink to="/admin/settings">Set them in Settings</RouterLink>.
    </Alert>
  );
}

/** How often the overview reloads itself (until realtime updates land). */
export const OVERVIEW_REFRESH_MS = 30_000;

function StatCard({ label, value, hint }: { label: string; value: number; hint?: string }) {
  return (
    <Card variant="outlined" role="group" aria-label={label}>
      <CardContent>
        <Typography color="text.secondary" component="h2" variant="body2">
          {label}
        </Typography>
        <Typography variant="h4" component="p">
          {value.toLocaleString('en-GB')}
        </Typography>
        {hint && (
          <Typography variant="body2" color="text.secondary">
            {hint}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

function Counts({ title, rows }: { title: string; rows: { name: string; count: number }[] }) {
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 700 }}>
          {title}
        </Typography>
        {rows.length === 0 && <Typography color="text.secondary">No sign-ups yet</Typography>}
        <List dense>
          {rows.map((r) => (
            <ListItem key={r.name} disableGutters secondaryAction={r.count}>
              <ListItemText primary={r.name || '(direct)'} />
            </ListItem>
          ))}
        </List>
      </CardContent>
    </Card>
  );
}

/** The console's first page: totals, the last 90 days, sources and the newest events; reloads on live changes and every 30 s. */
export function OverviewPage() {
  const [o, setO] = useState<Overview | null>(null);
  const [error, setError] = useState('');
  const { tick } = useLiveTick(OVERVIEW_TABLES); // reload as changes arrive
  useEffect(() => {
    let live = true;
    const load = () =>
      adminGet<Overview>('overview')
        .then((v) => live && (setO(v), setError('')))
        .catch((e: Error) => live && setError(e.message));
    load();
    const t = window.setInterval(load, OVERVIEW_REFRESH_MS);
    return () => {
      live = false;
      window.clearInterval(t);
    };
  }, [tick]);
  if (error && !o) return <Alert severity="error">{error}</Alert>;
  if (!o) return <Typography role="status">Loading the overview…</Typography>;
  const t = o.totals;
  const wl = (p: string) => t.waitlist[p] ?? { subscribed: 0, unsubscribed: 0 };
  const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' }, mb: 3 };
  const days = o.daily.map((d) => new Date(d.date + 'T00:00:00Z'));
  return (
    <Box component="section" aria-labelledby="overview-title">
      <Typography id="overview-title" variant="h5" component="h1" sx={{ mb: 1 }}>
        Overview
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        As of {when(o.asOf)}; updates as changes arrive, and every 30 seconds.
      </Typography>
      {error && <Alert severity="warning">{error}</Alert>}
      <UnsetSettings />
      <Box sx={grid}>
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
      </Box>
      <Card variant="outlined" sx={{ mb: 3 }}>
        <CardContent>
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 700 }}>
            The last 90 days
          </Typography>
          <LineChart
            height={280}
            xAxis={[{ data: days, scaleType: 'time', valueFormatter: (d: Date) => d.toISOString().slice(5, 10) }]}
            series={[
              { data: o.daily.map((d) => d.accounts), label: 'Accounts', showMark: false },
              { data: o.daily.map((d) => d.profilesCompleted), label: 'Profiles completed', showMark: false },
              ...Object.values(PROGRAMS).map((p) => ({ data: o.daily.map((d) => d.waitlist[p] ?? 0), label: p, showMark: false })),
              { data: o.daily.map((d) => d.messages), label: 'Messages', showMark: false },
            ]}
          />
        </CardContent>
      </Card>
      <AnalyticsPanel />
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        Sign-ups by source
      </Typography>
      <Box sx={{ ...grid, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
        <Counts title="Campaign (UTM source / campaign)" rows={o.sources.campaigns.map((c) => ({ name: [c.source, c.campaign].filter(Boolean).join(' / '), count: c.count }))} />
        <Counts title="Referrer" rows={o.sources.referrers} />
        <Counts title="Page" rows={o.sources.pages} />
        <OverviewReferrals tick={tick} />
      </Box>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        Newest
      </Typography>
      <List dense aria-label="Newest events">
        {o.newest.map((e) => (
          <ListItem key={e.kind + e.id} disableGutters>
            <ListItemText
              primary={`${{ waitlist: 'Waitlist sign-up', account: 'New account', message: 'Message' }[e.kind] ?? e.kind}: ${e.title}`}
              secondary={[e.detail, when(e.at)].filter(Boolean).join(' · ')}
            />
          </ListItem>
        ))}
      </List>
    </Box>
  );
}
