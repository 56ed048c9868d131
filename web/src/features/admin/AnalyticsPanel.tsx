import { useEffect, useId, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { LineChart } from '@mui/x-charts/LineChart';
import { count } from '../../lib/words';
import { adminGet, query } from './api';

/** The answer of GET /admin/v1/analytics: UTC days from..to, both included. */
export interface Analytics {
  from: string;
  to: string;
  days: { day: string; visitors: number; pageviews: number; waitlist: number; accounts: number }[];
  totals: { visitors: number; pageviews: number };
  top_pages: { path: string; visitors: number; pageviews: number }[];
  referrers: { host: string; visitors: number }[];
  utm_sources: { source: string; visitors: number }[];
  utm_campaigns: { campaign: string; visitors: number }[];
  funnel: { step: string; count: number; rate: number | null }[];
}

/** The ranges offered besides a custom one, in days ending today (UTC). */
export const PRESETS = [7, 30, 90] as const;

/** The funnel steps in the founders' words. */
const STEP_LABELS: Record<string, string> = {
  visitors: 'Visitors',
  waitlist_joined: 'Joined a waitlist',
  account_created: 'Created an account',
  role_chosen: 'Chose a role',
  onboarding_finished: 'Finished onboarding',
};

const num = (n: number) => n.toLocaleString('en-GB');

/** percent writes a rate as people read it: 0.4167 → "41.7%", 0.1 → "10%". */
export function percent(rate: number): string {
  return rate.toLocaleString('en-GB', { style: 'percent', maximumFractionDigits: 1 });
}

/** utcDay is the YYYY-MM-DD of a date in UTC, days days later. */
export function utcDay(d: Date, days = 0): string {
  return new Date(d.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

/** longDay writes 2026-11-03 as "3 Nov 2026". */
function longDay(day: string): string {
  return new Date(day + 'T00:00:00Z').toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

function SmallTable({ label, head, rows, level = 'h4' }: { label: string; head: string[]; rows: (string | number)[][]; level?: 'h3' | 'h4' }) {
  return (
    <Card variant="outlined" sx={{ minWidth: 0 }}>
      <CardContent sx={{ px: { xs: 1, sm: 2 } }}>
        <Typography component={level} variant="subtitle2" sx={{ fontWeight: 700 }}>
          {label}
        </Typography>
        {rows.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            None in this range
          </Typography>
        ) : (
          <Table size="small" aria-label={label} sx={{ tableLayout: 'fixed' }}>
            <TableHead>
              <TableRow>
                {head.map((h, i) => (
                  <TableCell key={h} align={i === 0 ? 'left' : 'right'} sx={i === 0 ? undefined : { width: '6rem', px: 1 }}>
                    {h}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={String(r[0])}>
                  {r.map((c, i) =>
                    i === 0 ? (
                      <TableCell key={i} component="th" scope="row" sx={{ overflowWrap: 'anywhere' }}>
                        {c}
                      </TableCell>
                    ) : (
                      <TableCell key={i} align="right" sx={{ px: 1 }}>
                        {typeof c === 'number' ? num(c) : c}
                      </TableCell>
                    ),
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * A step's rate is over the step before only when both count the same
 * people: choosing a role follows creating an account, finishing onboarding
 * follows choosing a role. Visitors are network addresses, and waitlist
 * sign-ups and accounts are different people: no rate between them.
 */
const RATE_OVER_STEP_BEFORE = new Set(['role_chosen', 'onboarding_finished']);

/** funnelRate says a step's share of the step before, never above 100 % ('' when there is none to give). */
export function funnelRate(step: string, count: number, before: { step: string; count: number } | undefined): string {
  if (!before || !RATE_OVER_STEP_BEFORE.has(step)) return '';
  const of = (STEP_LABELS[before.step] ?? before.step).toLowerCase();
  if (before.count === 0) return `no ${of} to compare with`;
  if (count > before.count) return `more than ${of} in this range (some started before it)`;
  return `${percent(count / before.count)} of ${of}`;
}

/** Funnel shows each step as a bar as long as its share of the largest step, with the rate from the step before where it means something. */
function Funnel({ steps }: { steps: Analytics['funnel'] }) {
  const max = Math.max(1, ...steps.map((s) => s.count));
  return (
    <Box component="ol" aria-label="Funnel" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
      {steps.map((s, i) => {
        const label = STEP_LABELS[s.step] ?? s.step;
        const rate = funnelRate(s.step, s.count, steps[i - 1]);
        return (
          <Box component="li" key={s.step} aria-label={`${label}: ${num(s.count)}${rate ? `, ${rate}` : ''}`}>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', columnGap: 1 }}>
              <Typography variant="body2" sx={{ fontWeight: 700 }}>
                {label}: {num(s.count)}
              </Typography>
              {rate && (
                <Typography variant="body2" color="text.secondary">
                  {rate}
                </Typography>
              )}
            </Box>
            <Box aria-hidden sx={{ height: 12, borderRadius: 1, bgcolor: 'action.hover', overflow: 'hidden' }}>
              <Box sx={{ height: '100%', width: `${(100 * s.count) / max}%`, bgcolor: 'primary.main' }} />
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

/** DailyChart plots visitors (left axis) and waitlist sign-ups (right axis) per day; the figures are also in a table below it. */
function DailyChart({ a }: { a: Analytics }) {
  const headingId = useId();
  const captionId = useId();
  const signups = a.days.reduce((n, d) => n + d.waitlist, 0);
  const busiest = a.days.reduce((b, d) => (d.visitors > b.visitors ? d : b), a.days[0]);
  const summary =
    `From ${longDay(a.from)} to ${longDay(a.to)}: ` +
    `${count(a.totals.visitors, 'visitor', 'visitors', num)} and ${count(signups, 'waitlist sign-up', 'waitlist sign-ups', num)} in all` +
    (busiest && busiest.visitors > 0 ? `; the busiest day was ${longDay(busiest.day)} with ${count(busiest.visitors, 'visitor', 'visitors', num)}.` : '.');
  return (
    <Box component="figure" aria-labelledby={`${headingId} ${captionId}`} sx={{ m: 0 }}>
      <Typography id={headingId} component="h3" variant="subtitle1" sx={{ fontWeight: 700 }}>
        Visitors and waitlist sign-ups per day
      </Typography>
      <Typography id={captionId} component="figcaption" variant="body2" color="text.secondary">
        {summary}
      </Typography>
      <LineChart
        height={260}
        margin={{ left: 0, right: 0 }}
        // One point, and at most one label, per day ('time' put a label every few hours).
        xAxis={[{ data: a.days.map((d) => d.day), scaleType: 'point', valueFormatter: (d: string) => d.slice(5) }]}
        yAxis={[
          { id: 'visitors', label: 'Visitors', width: 44, min: 0, tickMinStep: 1 },
          { id: 'signups', label: 'Sign-ups', position: 'right', width: 44, min: 0, tickMinStep: 1 },
        ]}
        // Visitors drawn last, in the brand green with marks, so it stays visible where the two lines meet.
        series={[
          { data: a.days.map((d) => d.waitlist), label: 'Waitlist sign-ups', yAxisId: 'signups', showMark: false, curve: 'linear', color: '#d97706' },
          { data: a.days.map((d) => d.visitors), label: 'Visitors', yAxisId: 'visitors', showMark: a.days.length <= 31, curve: 'linear', color: '#1b4332' },
        ]}
      />
      <details>
        <summary>
          <Typography component="span" variant="body2">
            The figures per day
          </Typography>
        </summary>
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Visits and sign-ups per day">
            <TableHead>
              <TableRow>
                {['Day', 'Visitors', 'Page views', 'Waitlist', 'Accounts'].map((h, i) => (
                  <TableCell key={h} align={i ? 'right' : 'left'} sx={{ px: 1 }}>
                    {h}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {a.days.map((d) => (
                <TableRow key={d.day}>
                  <TableCell component="th" scope="row" sx={{ px: 1, whiteSpace: 'nowrap' }}>
                    {d.day}
                  </TableCell>
                  {[d.visitors, d.pageviews, d.waitlist, d.accounts].map((v, i) => (
                    <TableCell key={i} align="right" sx={{ px: 1 }}>
                      {num(v)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      </details>
    </Box>
  );
}

type Range = { preset: (typeof PRESETS)[number] } | { from: string; to: string };

/** rangeQuery is the query string of a range: presets end today (UTC) and include it. */
function rangeQuery(r: Range, now = new Date()): string {
  if ('preset' in r) return query({ from: utcDay(now, 1 - r.preset), to: utcDay(now) });
  return query({ from: r.from, to: r.to });
}

/**
 * AnalyticsPanel is the overview's "Visits and sign-ups": the first-party
 * analytics of GET /admin/v1/analytics for a range of UTC days (last 7, 30 or
 * 90, or custom): totals, a chart per day, the funnel with its rates, and the
 * top sources and pages as tables.
 */
export function AnalyticsPanel() {
  const [range, setRange] = useState<Range>({ preset: 30 });
  const [custom, setCustom] = useState(false);
  const [from, setFrom] = useState(() => utcDay(new Date(), -29));
  const [to, setTo] = useState(() => utcDay(new Date()));
  const [formError, setFormError] = useState('');
  const [data, setData] = useState<Analytics | null>(null);
  const [error, setError] = useState('');
  const [attempt, setAttempt] = useState(0);
  const q = rangeQuery(range);

  useEffect(() => {
    let live = true;
    setData(null);
    setError('');
    adminGet<Analytics>(`analytics${q}`)
      .then((v) => live && setData(v))
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [q, attempt]);

  const choose = (_: unknown, v: string | null) => {
    if (v === null) return;
    if (v === 'custom') {
      setCustom(true);
      return;
    }
    setCustom(false);
    setFormError('');
    setRange({ preset: Number(v) as (typeof PRESETS)[number] });
  };
  const applyCustom = (e: FormEvent) => {
    e.preventDefault();
    if (!from || !to) return setFormError('Choose both days.');
    if (from > to) return setFormError('The first day must come before the last.');
    setFormError('');
    setRange({ from, to });
  };

  const empty = data && data.totals.visitors === 0 && data.totals.pageviews === 0;
  const funnelCounted = data?.funnel.some((s) => s.count > 0);
  const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' }, mb: 2 };
  return (
    <Box component="section" aria-labelledby="analytics-title" sx={{ mb: 3 }}>
      <Typography id="analytics-title" component="h2" variant="h6" sx={{ mb: 1 }}>
        Visits and sign-ups
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Counted by Salaula itself, without cookies: a visitor is counted once a day.
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 2 }}>
        <ToggleButtonGroup
          exclusive
          size="small"
          aria-label="Date range"
          value={custom ? 'custom' : 'preset' in range ? String(range.preset) : 'custom'}
          onChange={choose}
        >
          {PRESETS.map((n) => (
            <ToggleButton key={n} value={String(n)}>
              {n} days
            </ToggleButton>
          ))}
          <ToggleButton value="custom">Custom</ToggleButton>
        </ToggleButtonGroup>
        {custom && (
          <Box component="form" aria-label="Custom range" onSubmit={applyCustom} noValidate sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
            <TextField type="date" size="small" label="From" value={from} onChange={(e) => setFrom(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
            <TextField type="date" size="small" label="To" value={to} onChange={(e) => setTo(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
            <Button type="submit" variant="outlined">
              Show
            </Button>
            {formError && (
              <Typography role="alert" variant="body2" color="error" sx={{ width: '100%' }}>
                {formError}
              </Typography>
            )}
          </Box>
        )}
      </Box>

      {error && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </Button>
          }
        >
          Could not load the visits: {error}
        </Alert>
      )}
      {!data && !error && <Typography role="status">Loading the visits…</Typography>}
      {data && (
        <>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {longDay(data.from)} to {longDay(data.to)} (UTC days): {count(data.totals.visitors, 'visitor', 'visitors', num)}, {count(data.totals.pageviews, 'page view', 'page views', num)}.
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            A visitor is one network address on one day: many phones on a mobile network share an address, so there are more people than visitors.
          </Typography>
          {empty ? (
            <Typography sx={{ mb: 2 }}>No visits recorded yet</Typography>
          ) : (
            <Card variant="outlined" sx={{ mb: 2 }}>
              <CardContent sx={{ px: { xs: 1, sm: 2 } }}>
                <DailyChart a={data} />
              </CardContent>
            </Card>
          )}
          {(!empty || funnelCounted) && (
            <Card variant="outlined" sx={{ mb: 2 }}>
              <CardContent>
                <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 700, mb: 1 }}>
                  Funnel
                </Typography>
                <Funnel steps={data.funnel} />
              </CardContent>
            </Card>
          )}
          {!empty && (
            <>
              <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 700, mb: 1 }}>
                Top sources
              </Typography>
              <Box sx={{ ...grid, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
                <SmallTable label="Referrers" head={['Site', 'Visitors']} rows={data.referrers.map((r) => [r.host || '(direct)', r.visitors])} />
                <SmallTable label="UTM sources" head={['Source', 'Visitors']} rows={data.utm_sources.map((r) => [r.source, r.visitors])} />
                <SmallTable label="UTM campaigns" head={['Campaign', 'Visitors']} rows={data.utm_campaigns.map((r) => [r.campaign, r.visitors])} />
              </Box>
              <SmallTable level="h3" label="Top pages" head={['Page', 'Visitors', 'Page views']} rows={data.top_pages.map((p) => [p.path, p.visitors, p.pageviews])} />
            </>
          )}
        </>
      )}
    </Box>
  );
}
