import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PROGRAMS } from '../../config/constants';
import { adminGet, when } from './api';
import { LIVE_TABLES, useLiveTick } from './live';
import type { Referral, ReferralCount, Referrer } from './launchApi';

const LIVE = [LIVE_TABLES.waitlist];

/** The sign-ups made through one person's link, credited or not (and why): what a founder reads to spot a farm. */
function ReferralsOf({ who }: { who: Referrer }) {
  const [list, setList] = useState<Referral[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    adminGet<{ items: Referral[] }>(`referrals/${encodeURIComponent(who.signupId)}`)
      .then((r) => setList(r.items))
      .catch((e: Error) => setError(e.message));
  }, [who.signupId]);
  if (error) return <Alert severity="error">{error}</Alert>;
  if (!list) return <Typography role="status">Loading…</Typography>;
  return (
    <Table size="small" aria-label={`Sign-ups through the link of ${who.email}`}>
      <TableHead>
        <TableRow>
          <TableCell>Signed up</TableCell>
          <TableCell>When</TableCell>
          <TableCell>Credited</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {list.map((r) => (
          <TableRow key={r.signupId}>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>{r.email || '(unsubscribed)'}</TableCell>
            <TableCell>{when(r.createdAt)}</TableCell>
            <TableCell>{r.credited ? 'Yes' : `No: ${r.reason}`}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Referral counts per program, for the overview next to sources and campaigns. */
export function ReferralCounts({ counts }: { counts: ReferralCount[] }) {
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 700 }}>
          Through personal links
        </Typography>
        {counts.length === 0 && <Typography color="text.secondary">No sign-ups through links yet</Typography>}
        {counts.map((c) => (
          <Typography key={c.program} variant="body2">
            {c.program}: {c.signups} ({c.credited} credited)
          </Typography>
        ))}
      </CardContent>
    </Card>
  );
}

/** The console's referrals: sign-ups through links per program, the top referrers, and each one's referrals. */
export function ReferralsPage() {
  const [program, setProgram] = useState('');
  const [data, setData] = useState<{ programs: ReferralCount[]; top: Referrer[] } | null>(null);
  const [open, setOpen] = useState<Referrer | null>(null);
  const [error, setError] = useState('');
  const { tick } = useLiveTick(LIVE);
  useEffect(() => {
    let live = true;
    adminGet<{ programs: ReferralCount[]; top: Referrer[] }>(`referrals?limit=50${program ? `&program=${encodeURIComponent(program)}` : ''}`)
      .then((d) => live && (setData(d), setError('')))
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [program, tick]);
  return (
    <Box component="section" aria-labelledby="referrals-title">
      <Typography id="referrals-title" variant="h5" component="h1" sx={{ mb: 2 }}>
        Referrals
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      {data && <ReferralCounts counts={data.programs} />}
      <TextField select label="Waitlist" value={program} onChange={(e) => setProgram(e.target.value)} size="small" sx={{ my: 2, minWidth: 260 }}>
        <MenuItem value="">Every waitlist</MenuItem>
        {Object.values(PROGRAMS).map((p) => (
          <MenuItem key={p} value={p}>
            {p}
          </MenuItem>
        ))}
      </TextField>
      <Table size="small" aria-label="Top referrers">
        <TableHead>
          <TableRow>
            <TableCell>Person</TableCell>
            <TableCell>Waitlist</TableCell>
            <TableCell align="right">Referrals</TableCell>
            <TableCell align="right">Credited</TableCell>
            <TableCell>Last</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data?.top.map((r) => (
            <TableRow key={r.signupId} selected={open?.signupId === r.signupId}>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>
                <Button size="small" onClick={() => setOpen(open?.signupId === r.signupId ? null : r)}>
                  {r.email || '(unsubscribed)'}
                </Button>
              </TableCell>
              <TableCell>{r.program}</TableCell>
              <TableCell align="right">{r.referrals}</TableCell>
              <TableCell align="right">{r.credited}</TableCell>
              <TableCell>{when(r.lastAt)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {open && (
        <Box sx={{ mt: 2 }}>
          <Typography component="h2" variant="h6">
            Sign-ups through the link of {open.email}
          </Typography>
          <ReferralsOf who={open} />
        </Box>
      )}
    </Box>
  );
}

/** The overview's card of sign-ups through personal links, loading its own counts (reloaded with the overview's tick). */
export function OverviewReferrals({ tick }: { tick: number }) {
  const [counts, setCounts] = useState<ReferralCount[]>([]);
  useEffect(() => {
    let live = true;
    adminGet<{ programs: ReferralCount[] }>('referrals?limit=1')
      .then((d) => live && setCounts(d.programs))
      .catch(() => {}); // the card stays as it was; the overview reports its own errors
    return () => {
      live = false;
    };
  }, [tick]);
  return <ReferralCounts counts={counts} />;
}
