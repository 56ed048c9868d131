import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, TextField } from '../../components/ui';
import { PROGRAMS } from '../../config/constants';
import { count } from '../../lib/words';
import { adminGet, adminKeys, adminSend, errorText, when } from './api';
import { MOVES, type Announcement, type Bounce, type Preview } from './launchApi';
import { ConfirmDialog } from './ui/ConfirmDialog';
import { Select } from './ui/Select';

const WAITLISTS = Object.values(PROGRAMS).map((p) => ({ value: p, label: p }));

/** useAnnouncementChange is a change of announcements (a new draft, a move): it reloads the list and the audit log. */
function useAnnouncementChange<T>(change: (v: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => Promise.all([adminKeys.announcements, adminKeys.list('audit')].map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}

/** The form of a new announcement: program, subject, plain text and rate. */
function NewAnnouncement() {
  const [program, setProgram] = useState<string>(PROGRAMS.wardrobeClearance);
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [rate, setRate] = useState('5');
  const create = useAnnouncementChange(() => adminSend<Announcement>('POST', 'announcements', { program, subject, body, ratePerSecond: Number(rate) || 0 }));
  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate(undefined, {
      onSuccess: () => {
        setSubject('');
        setBody('');
      },
    });
  }
  return (
    <form onSubmit={submit} aria-label="New announcement" className="adm-card adm-gap-b" style={{ display: 'grid', gap: 16, marginBottom: 24 }}>
      <h2 className="adm-h3">New announcement</h2>
      <Select label="Waitlist" value={program} onChange={setProgram} options={WAITLISTS} />
      <TextField label="Subject" value={subject} onChange={(e) => setSubject(e.target.value)} size="small" required fullWidth inputProps={{ maxLength: 200 }} />
      <TextField label="Text (plain text; links as they are)" value={body} onChange={(e) => setBody(e.target.value)} multiline minRows={5} required fullWidth />
      <TextField
        label="E-mails a second"
        type="number"
        value={rate}
        onChange={(e) => setRate(e.target.value)}
        size="small"
        helperText="A small SMTP plan allows a few a second."
        inputProps={{ min: 1, max: 200 }}
      />
      {create.error && <Alert severity="error">{errorText(create.error)}</Alert>}
      <div>
        <Button type="submit" variant="solid" disabled={create.isPending}>
          Save draft
        </Button>
      </div>
    </form>
  );
}

/** What each status says to a founder. */
const STATUS_WORDS: Record<Announcement['status'], string> = {
  draft: 'Draft: not sent yet',
  sending: 'Sending…',
  paused: 'Paused',
  cancelled: 'Cancelled',
  done: 'Sent to everyone',
};

/** statusWords is the announcement's status in words: a sending that ended with failures is "Finished", not "Sent to everyone". */
export function statusWords(a: Announcement): string {
  return a.status === 'done' && a.bounced + a.failed > 0 ? 'Finished' : STATUS_WORDS[a.status];
}

const n = (v: number) => v.toLocaleString('en-GB');

/**
 * The progress of a sending as the pacer last counted it: "10 of 25 sent"
 * (a draft: how many it will go to), and the failures when there are any.
 */
function Progress({ a }: { a: Announcement }) {
  const done = a.sent + a.bounced + a.failed;
  const value = a.total > 0 ? Math.min(100, (100 * done) / a.total) : 0;
  const problems = [
    a.failing > 0 && `${n(a.failing)} being tried again`,
    a.bounced > 0 && `${n(a.bounced)} bounced`,
    a.failed > 0 && `${n(a.failed)} failed`,
    a.skipped > 0 && `${n(a.skipped)} skipped (address bouncing)`,
  ].filter(Boolean);
  return (
    <div aria-label={`Progress of ${a.subject}`} role="group">
      <p className="adm-h4" data-testid="announcement-status">
        {statusWords(a)}
      </p>
      {a.status !== 'draft' && (
        <div className="adm-bar-track" aria-hidden>
          <div className={`adm-bar-fill${a.status === 'sending' ? ' adm-bar-fill-moving' : ''}`} style={{ width: `${value}%` }} />
        </div>
      )}
      <p className="adm-small" data-testid="announcement-counts">
        {a.status === 'draft' ? `Will go to ${count(a.total, 'address', 'addresses', n)}` : `${n(a.sent)} of ${n(a.total)} sent`}
      </p>
      {problems.length > 0 && (
        <p className="adm-small adm-error-text" data-testid="announcement-problems">
          {problems.join(' · ')}
        </p>
      )}
    </div>
  );
}

/** One announcement: its progress, preview, test and the moves its status allows. */
function AnnouncementCard({ a }: { a: Announcement }) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [asking, setAsking] = useState(false);
  // One action at a time; its success note or its error shows under the buttons.
  const act = useAnnouncementChange(async ({ what }: { what: () => Promise<unknown>; done: string }) => what());
  const note = act.isSuccess ? act.variables.done : '';
  const move = (action: string) => act.mutate({ what: () => adminSend('POST', `announcements/${a.id}/${action}`), done: '' });
  return (
    <article aria-label={a.subject} className="adm-card adm-gap-b">
      <h3 className="adm-h3">{a.subject}</h3>
      <p className="adm-small adm-muted">
        {a.program} · {a.ratePerSecond} a second · written by {a.createdBy} {when(a.createdAt)}
        {a.finishedAt ? ` · finished ${when(a.finishedAt)}` : ''}
      </p>
      <Progress a={a} />
      <div className="adm-row adm-gap-t" style={{ marginTop: 8 }}>
        <Button size="small" onClick={() => act.mutate({ what: async () => setPreview(await adminGet<Preview>(`announcements/${a.id}/preview`)), done: '' })}>
          Preview
        </Button>
        <Button size="small" onClick={() => act.mutate({ what: () => adminSend('POST', `announcements/${a.id}/test`), done: 'Test sent to your address.' })}>
          Send me a test
        </Button>
        {MOVES.filter((m) => m.from.includes(a.status)).map((m) => (
          <Button key={m.action} size="small" variant={m.action === 'send' ? 'solid' : 'outline'} onClick={() => (m.action === 'send' ? setAsking(true) : move(m.action))}>
            {m.label}
          </Button>
        ))}
      </div>
      <ConfirmDialog
        open={asking}
        question={`Send "${a.subject}" to every subscribed address on the ${a.program} waitlist?`}
        confirm="Send to the waitlist"
        onConfirm={() => move('send')}
        onClose={() => setAsking(false)}
      />
      {note && (
        <Alert severity="success" className="adm-gap-t" >
          {note}
        </Alert>
      )}
      {act.error && (
        <Alert severity="error" className="adm-gap-t">
          {errorText(act.error)}
        </Alert>
      )}
      {preview && (
        <pre aria-label="Preview" className="adm-preview">
          {`To: ${preview.to}\nSubject: ${preview.subject}\nList-Unsubscribe: <${preview.listUnsubscribe}>\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\n\n${preview.body}`}
        </pre>
      )}
    </article>
  );
}

/** The console's announcements: write, preview, test, send, and follow the progress live; the bouncing addresses below. */
export function AnnouncementsPage() {
  const list = useQuery({ queryKey: adminKeys.announcements, queryFn: ({ signal }) => adminGet<{ items: Announcement[] }>('announcements', signal) });
  const bounces = useQuery({ queryKey: adminKeys.bounces, queryFn: ({ signal }) => adminGet<{ items: Bounce[] }>('bounces', signal) });
  const error = list.error ?? bounces.error;
  const items = list.data?.items;
  return (
    <section aria-labelledby="announcements-title">
      <h1 id="announcements-title" className="adm-h1">
        Announcements
      </h1>
      <NewAnnouncement />
      {error && <Alert severity="error">{errorText(error)}</Alert>}
      {!items && !error && <p role="status">Loading the announcements…</p>}
      {items?.length === 0 && <p className="adm-muted">No announcements yet.</p>}
      {items?.map((a) => <AnnouncementCard key={a.id} a={a} />)}
      <h2 className="adm-h2 adm-gap-t3" style={{ marginBottom: 0 }}>
        Bouncing addresses
      </h2>
      <p className="adm-small adm-muted">A mail server refused these for good; announcements skip them.</p>
      <ul className="adm-list adm-list-2" aria-label="Bouncing addresses">
        {(bounces.data?.items.length ?? 0) === 0 && <li>None</li>}
        {bounces.data?.items.map((b) => (
          <li key={b.email}>
            <p>{b.email}</p>
            <p className="adm-small adm-muted">{`${b.reason} · ${when(b.createdAt)}`}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
