import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, TextField } from '../../components/ui';
import { count } from '../../lib/words';
import { adminGet, adminKeys, errorText, query } from './api';
import { CHART_COLORS, LineChart } from './ui/LineChart';

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

/** FiguresTable is a table of figures: a row header (the day, the page...) and numbers on the right. */
function FiguresTable({ label, head, rows, className, first }: { label: string; head: string[]; rows: (string | number)[][]; className: string; first: string }) {
  return (
    <table aria-label={label} className={`adm-table ${className}`}>
      <thead>
        <tr>
          {head.map((h, i) => (
            <th key={h} scope="col" className={i ? 'adm-num' : undefined}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={String(r[0])}>
            {r.map((c, i) =>
              i === 0 ? (
                <th key={i} scope="row" className={first}>
                  {c}
                </th>
              ) : (
                <td key={i} className="adm-num">
                  {typeof c === 'number' ? num(c) : c}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SmallTable({ label, head, rows, level = 'h4' }: { label: string; head: string[]; rows: (string | number)[][]; level?: 'h3' | 'h4' }) {
  const Heading = level;
  return (
    <div className="adm-card adm-card-tight">
      <Heading className="adm-h4">{label}</Heading>
      {rows.length === 0 ? (
        <p className="adm-small adm-muted">None in this range</p>
      ) : (
        <FiguresTable label={label} head={head} rows={rows} className="adm-table-fixed" first="adm-wrapcell" />
      )}
    </div>
  );
}

/** DayTable is a chart's figures per day, folded away under "The figures per day". */
export function DayTable({ label, head, rows }: { label: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <details className="adm-details">
      <summary>
        <span className="adm-small">The figures per day</span>
      </summary>
      <div className="adm-scroll">
        <FiguresTable label={label} head={head} rows={rows} className="adm-table-tight" first="adm-nowrap" />
      </div>
    </details>
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
    <ol aria-label="Funnel" className="adm-funnel">
      {steps.map((s, i) => {
        const label = STEP_LABELS[s.step] ?? s.step;
        const rate = funnelRate(s.step, s.count, steps[i - 1]);
        return (
          <li key={s.step} aria-label={`${label}: ${num(s.count)}${rate ? `, ${rate}` : ''}`}>
            <div className="adm-row" style={{ justifyContent: 'space-between', columnGap: 8, rowGap: 0 }}>
              <p className="adm-small" style={{ fontWeight: 700 }}>
                {label}: {num(s.count)}
              </p>
              {rate && <p className="adm-small adm-muted">{rate}</p>}
            </div>
            <div aria-hidden className="adm-bar-track">
              <div className="adm-bar-fill" style={{ width: `${(100 * s.count) / max}%` }} />
            </div>
          </li>
        );
      })}
    </ol>
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
    <figure aria-labelledby={`${headingId} ${captionId}`} className="adm-figure">
      <h3 id={headingId} className="adm-h3">
        Visitors and waitlist sign-ups per day
      </h3>
      <figcaption id={captionId} className="adm-small adm-muted">
        {summary}
      </figcaption>
      {/* Visitors drawn last, in the brand green with marks, so it stays visible where the two lines meet. */}
      <LineChart
        days={a.days.map((d) => d.day.slice(5))}
        leftTitle="Visitors"
        rightTitle="Sign-ups"
        series={[
          { label: 'Waitlist sign-ups', values: a.days.map((d) => d.waitlist), axis: 'right', color: CHART_COLORS[1] },
          { label: 'Visitors', values: a.days.map((d) => d.visitors), color: CHART_COLORS[0], marks: a.days.length <= 31 },
        ]}
      />
      <DayTable
        label="Visits and sign-ups per day"
        head={['Day', 'Visitors', 'Page views', 'Waitlist', 'Accounts']}
        rows={a.days.map((d) => [d.day, d.visitors, d.pageviews, d.waitlist, d.accounts])}
      />
    </figure>
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
  const q = rangeQuery(range);
  const analytics = useQuery({
    queryKey: adminKeys.analytics(q),
    queryFn: ({ signal }) => adminGet<Analytics>(`analytics${q}`, signal),
  });
  const data = analytics.data;
  const error = analytics.error && !analytics.isFetching ? errorText(analytics.error) : '';

  const choose = (v: string) => {
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
  const chosen = custom ? 'custom' : 'preset' in range ? String(range.preset) : 'custom';
  return (
    <section aria-labelledby="analytics-title" style={{ marginBottom: 24 }}>
      <h2 id="analytics-title" className="adm-h2">
        Visits and sign-ups
      </h2>
      <p className="adm-small adm-muted adm-gap-b1">Counted by Salaula itself, without cookies: a visitor is counted once a day.</p>
      <div className="adm-row adm-gap-b">
        <div role="group" aria-label="Date range" className="adm-toggle">
          {[...PRESETS.map((n) => [String(n), `${n} days`]), ['custom', 'Custom']].map(([v, label]) => (
            <button key={v} type="button" aria-pressed={chosen === v} onClick={() => choose(v)}>
              {label}
            </button>
          ))}
        </div>
        {custom && (
          <form aria-label="Custom range" onSubmit={applyCustom} noValidate className="adm-row" style={{ alignItems: 'flex-end' }}>
            <TextField type="date" size="small" label="From" value={from} onChange={(e) => setFrom(e.target.value)} />
            <TextField type="date" size="small" label="To" value={to} onChange={(e) => setTo(e.target.value)} />
            <Button type="submit" variant="outline">
              Show
            </Button>
            {formError && (
              <p role="alert" className="adm-small" style={{ width: '100%', color: 'var(--color-error)' }}>
                {formError}
              </p>
            )}
          </form>
        )}
      </div>

      {error && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void analytics.refetch()}>
              Try again
            </Button>
          }
        >
          Could not load the visits: {error}
        </Alert>
      )}
      {!data && !error && <p role="status">Loading the visits…</p>}
      {data && (
        <>
          <p className="adm-small adm-gap-b">
            {longDay(data.from)} to {longDay(data.to)} (UTC days): {count(data.totals.visitors, 'visitor', 'visitors', num)}, {count(data.totals.pageviews, 'page view', 'page views', num)}.
          </p>
          <p className="adm-small adm-muted adm-gap-b">
            A visitor is one network address on one day: many phones on a mobile network share an address, so there are more people than visitors.
          </p>
          {empty ? (
            <p className="adm-gap-b">No visits recorded yet</p>
          ) : (
            <div className="adm-card adm-card-tight adm-gap-b">
              <DailyChart a={data} />
            </div>
          )}
          {(!empty || funnelCounted) && (
            <div className="adm-card adm-gap-b">
              <h3 className="adm-h3 adm-gap-b1">Funnel</h3>
              <Funnel steps={data.funnel} />
            </div>
          )}
          {!empty && (
            <>
              <h3 className="adm-h3 adm-gap-b1">Top sources</h3>
              <div className="adm-grid adm-grid-1" style={{ marginBottom: 16 }}>
                <SmallTable label="Referrers" head={['Site', 'Visitors']} rows={data.referrers.map((r) => [r.host || '(direct)', r.visitors])} />
                <SmallTable label="UTM sources" head={['Source', 'Visitors']} rows={data.utm_sources.map((r) => [r.source, r.visitors])} />
                <SmallTable label="UTM campaigns" head={['Campaign', 'Visitors']} rows={data.utm_campaigns.map((r) => [r.campaign, r.visitors])} />
              </div>
              <SmallTable level="h3" label="Top pages" head={['Page', 'Visitors', 'Page views']} rows={data.top_pages.map((p) => [p.path, p.visitors, p.pageviews])} />
            </>
          )}
        </>
      )}
    </section>
  );
}
