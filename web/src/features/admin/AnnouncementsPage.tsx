import { useEffect, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PROGRAMS } from '../../config/constants';
import { adminGet, adminSend, when } from './api';
import { LIVE_TABLES, useLiveTick } from './live';
import { MOVES, type Announcement, type Bounce, type Preview } from './launchApi';

const LIVE = [LIVE_TABLES.announcements];

/** The form of a new announcement: program, subject, plain text and rate. */
function NewAnnouncement({ onCreated }: { onCreated: (a: Announcement) => void }) {
  const [program, setProgram] = useState<string>(PROGRAMS.wardrobeClearance);
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [rate, setRate] = useState('5');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const a = await adminSend<Announcement>('POST', 'announcements', { program, subject, body, ratePerSecond: Number(rate) || 0 });
      setSubject('');
      setBody('');
      onCreated(a);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card variant="outlined" sx={{ mb: 3 }}>
      <CardContent component="form" onSubmit={submit} aria-label="New announcement" sx={{ display: 'grid', gap: 2 }}>
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 700 }}>
          New announcement
        </Typography>
        <TextField select label="Waitlist" value={program} onChange={(e) => setProgram(e.target.value)} size="small">
          {Object.values(PROGRAMS).map((p) => (
            <MenuItem key={p} value={p}>
              {p}
            </MenuItem>
          ))}
        </TextField>
        <TextField label="Subject" value={subject} onChange={(e) => setSubject(e.target.value)} size="small" required slotProps={{ htmlInput: { maxLength: 200 } }} />
        <TextField label="Text (plain text; links as they are)" value={body} onChange={(e) => setBody(e.target.value)} multiline minRows={5} required />
        <TextField
          label="E-mails a second"
          type="number"
          value={rate}
          onChange={(e) => setRate(e.target.value)}
          size="small"
          helperText="A small SMTP plan allows a few a second."
          slotProps={{ htmlInput: { min: 1, max: 200 } }}
        />
        {error && <Alert severity="error">{error}</Alert>}
        <Box>
          <Button type="submit" variant="contained" disabled={busy}>
            Save draft
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}

/** The progress of a sending: queued, sent, failing, bounced, as the pacer last counted them. */
function Progress({ a }: { a: Announcement }) {
  const done = a.sent + a.bounced + a.failed;
  const value = a.recipients > 0 ? (100 * done) / a.recipients : 0;
  return (
    <Box aria-label={`Progress of ${a.subject}`} role="group">
      {a.status !== 'draft' && <LinearProgress variant={a.allQueued ? 'determinate' : 'buffer'} value={value} valueBuffer={value} sx={{ my: 1 }} />}
      <Typography variant="body2" data-testid="announcement-counts">
        {`${a.recipients} queued so far · ${a.sent} sent · ${a.queued} waiting · ${a.failing} failing · ${a.bounced} bounced · ${a.failed} failed · ${a.skipped} skipped (bouncing)`}
      </Typography>
    </Box>
  );
}

/** One announcement: its progress, preview, test and the moves its status allows. */
function AnnouncementCard({ a, onChanged }: { a: Announcement; onChanged: () => void }) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const act = async (what: () => Promise<unknown>, done: string) => {
    setError('');
    setNote('');
    try {
      await what();
      setNote(done);
      onChanged();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <Card variant="outlined" sx={{ mb: 2 }} component="article" aria-label={a.subject}>
      <CardContent>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 700 }}>
          {a.subject}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {a.program} · {a.status} · {a.ratePerSecond} a second · written by {a.createdBy} {when(a.createdAt)}
          {a.finishedAt ? ` · finished ${when(a.finishedAt)}` : ''}
        </Typography>
        <Progress a={a} />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
          <Button size="small" onClick={() => act(async () => setPreview(await adminGet<Preview>(`announcements/${a.id}/preview`)), '')}>
            Preview
          </Button>
          <Button size="small" onClick={() => act(() => adminSend('POST', `announcements/${a.id}/test`), 'Test sent to your address.')}>
            Send me a test
          </Button>
          {MOVES.filter((m) => m.from.includes(a.status)).map((m) => (
            <Button
              key={m.action}
              size="small"
              variant={m.action === 'send' ? 'contained' : 'outlined'}
              onClick={() => {
                if (m.action === 'send' && !window.confirm(`Send "${a.subject}" to every subscribed address on the ${a.program} waitlist?`)) return;
                void act(() => adminSend('POST', `announcements/${a.id}/${m.action}`), '');
              }}
            >
              {m.label}
            </Button>
          ))}
        </Box>
        {note && <Alert severity="success" sx={{ mt: 1 }}>{note}</Alert>}
        {error && <Alert severity="error" sx={{ mt: 1 }}>{error}</Alert>}
        {preview && (
          <Box component="pre" aria-label="Preview" sx={{ whiteSpace: 'pre-wrap', bgcolor: 'grey.100', p: 2, mt: 1, fontSize: 13, overflowWrap: 'anywhere' }}>
            {`To: ${preview.to}\nSubject: ${preview.subject}\nList-Unsubscribe: <${preview.listUnsubscribe}>\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\n\n${preview.body}`}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}

/** The console's announcements: write, preview, test, send, and follow the progress live; the bouncing addresses below. */
export function AnnouncementsPage() {
  const [list, setList] = useState<Announcement[] | null>(null);
  const [bounces, setBounces] = useState<Bounce[]>([]);
  const [error, setError] = useState('');
  const [reload, setReload] = useState(0);
  const { tick } = useLiveTick(LIVE);
  useEffect(() => {
    let live = true;
    Promise.all([adminGet<{ items: Announcement[] }>('announcements'), adminGet<{ items: Bounce[] }>('bounces')])
      .then(([a, b]) => live && (setList(a.items), setBounces(b.items), setError('')))
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [tick, reload]);
  const again = () => setReload((n) => n + 1);
  return (
    <Box component="section" aria-labelledby="announcements-title">
      <Typography id="announcements-title" variant="h5" component="h1" sx={{ mb: 2 }}>
        Announcements
      </Typography>
      <NewAnnouncement onCreated={again} />
      {error && <Alert severity="error">{error}</Alert>}
      {!list && !error && <Typography role="status">Loading the announcements…</Typography>}
      {list?.length === 0 && <Typography color="text.secondary">No announcements yet.</Typography>}
      {list?.map((a) => <AnnouncementCard key={a.id} a={a} onChanged={again} />)}
      <Typography component="h2" variant="h6" sx={{ mt: 3 }}>
        Bouncing addresses
      </Typography>
      <Typography variant="body2" color="text.secondary">
        A mail server refused these for good; announcements skip them.
      </Typography>
      <List dense aria-label="Bouncing addresses">
        {bounces.length === 0 && (
          <ListItem disableGutters>
            <ListItemText primary="None" />
          </ListItem>
        )}
        {bounces.map((b) => (
          <ListItem key={b.email} disableGutters>
            <ListItemText primary={b.email} secondary={`${b.reason} · ${when(b.createdAt)}`} />
          </ListItem>
        ))}
      </List>
    </Box>
  );
}
