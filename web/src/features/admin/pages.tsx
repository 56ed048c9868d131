import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, TextField } from '../../components/ui';
import { CONTACT_SUBJECTS, PROGRAMS } from '../../config/constants';
import { ListView } from './ListView';
import { localPhone, subjectLabel } from '../../lib/words';
import { LABELS, settingValue } from './SettingsPage';
import { adminKeys, adminSend, errorText, when, type AuditEntry, type Message, type Person, type WaitlistItem } from './api';

const newestFirst = [
  { value: '-created_at', label: 'Newest first' },
  { value: 'created_at', label: 'Oldest first' },
  { value: 'email', label: 'E-mail A–Z' },
  { value: '-email', label: 'E-mail Z–A' },
];
const programOptions = Object.values(PROGRAMS).map((p) => ({ value: p, label: p }));
const roleLabels: Record<string, string> = { buyer: 'Buyer', seller: 'Seller', buyer_and_seller: 'Buyer and seller' };

/**
 * sourceOf says where a sign-up came from: the person whose personal link
 * it came through, else its campaign, else the page that linked to the site,
 * else nothing ("Direct").
 */
export function sourceOf(s: WaitlistItem): string {
  if (s.referredBy) return `Friend's link: ${s.referredBy}`;
  return [s.utmSource, s.utmCampaign].filter(Boolean).join(' / ') || s.referrer || 'Direct';
}

/** The waitlist: every sign-up with where it came from. */
export function WaitlistPage() {
  return (
    <ListView<WaitlistItem>
      title="Waitlist"
      endpoint="waitlist"
      filters={[
        { name: 'program', label: 'Program', options: programOptions },
        { name: 'status', label: 'Status', options: [{ value: 'subscribed', label: 'Subscribed' }, { value: 'unsubscribed', label: 'Unsubscribed' }] },
      ]}
      sorts={newestFirst}
      search="Search e-mail"
      searchHint="Finds addresses that start with what you type, or whose domain (after the @) does; start with @ to search domains only."
      rowKey={(s) => s.id}
      columns={[
        { label: 'Signed up', render: (s) => when(s.createdAt) },
        { label: 'E-mail', render: (s) => s.email },
        { label: 'Program', render: (s) => s.program },
        { label: 'Status', render: (s) => (s.unsubscribedAt ? 'Unsubscribed' : 'Subscribed') },
        { label: 'Source', render: sourceOf },
        { label: 'Page', render: (s) => s.pagePath },
      ]}
    />
  );
}

/** The inbox: contact messages, open or handled, with a note and a reply link. */
export function MessagesPage() {
  return (
    <ListView<Message>
      title="Messages"
      endpoint="messages"
      filters={[
        { name: 'status', label: 'Status', options: [{ value: 'open', label: 'Open' }, { value: 'handled', label: 'Handled' }] },
        { name: 'subject', label: 'Subject', options: CONTACT_SUBJECTS.map((s) => ({ value: s.value, label: s.label })) },
      ]}
      sorts={newestFirst}
      search="Search e-mail or name"
      searchHint="Finds messages whose address, its domain (after the @), first name or last name starts with what you type; start with @ to search domains only."
      rowKey={(m) => m.id}
      columns={[
        { label: 'Received', render: (m) => when(m.createdAt) },
        { label: 'From', render: (m) => `${m.firstName} ${m.lastName}` },
        { label: 'E-mail', render: (m) => m.email },
        { label: 'Subject', render: (m) => subjectLabel(m.subject) },
        { label: 'Status', render: (m) => <span className={`adm-chip adm-chip-${m.status}`}>{m.status === 'open' ? 'Open' : 'Handled'}</span> },
      ]}
      expand={(m) => <MessageActions message={m} />}
    />
  );
}

/** A message's note, reply and status; a change reloads the inbox, the overview's counts and the audit log. */
function MessageActions({ message: m }: { message: Message }) {
  const client = useQueryClient();
  const [note, setNote] = useState(m.note);
  const save = useMutation({
    mutationFn: (status?: 'open' | 'handled') => adminSend('PATCH', `messages/${encodeURIComponent(m.id)}`, { note, ...(status ? { status } : {}) }),
    onSuccess: () =>
      Promise.all([adminKeys.list('messages'), adminKeys.overview, adminKeys.list('audit')].map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
  const busy = save.isPending;
  const reply = `mailto:${m.email}?subject=${encodeURIComponent(`Re: ${subjectLabel(m.subject)}`)}`;
  return (
    <div className="adm-stack">
      <p className="adm-pre">{m.message}</p>
      {m.phoneNumber && (
        <p className="adm-small">
          Phone:{' '}
          <a className="adm-link" href={`tel:${m.phoneNumber}`}>
            {localPhone(m.phoneNumber)}
          </a>
        </p>
      )}
      <TextField
        label={`Note on the message from ${m.firstName} ${m.lastName}`}
        size="small"
        multiline
        value={note}
        onChange={(e) => setNote(e.target.value)}
        inputProps={{ maxLength: 2000 }}
      />
      {save.error && <Alert severity="error">{errorText(save.error)}</Alert>}
      <div className="adm-row">
        <a className="adm-btnlink" href={reply}>
          Reply by e-mail
        </a>
        <Button disabled={busy} onClick={() => save.mutate(undefined)}>
          Save note
        </Button>
        {m.status === 'open' ? (
          <Button variant="solid" disabled={busy} onClick={() => save.mutate('handled')}>
            Mark handled
          </Button>
        ) : (
          <Button disabled={busy} onClick={() => save.mutate('open')}>
            Reopen
          </Button>
        )}
      </div>
    </div>
  );
}

/** People: accounts with their profiles. */
export function PeoplePage() {
  return (
    <ListView<Person>
      title="People"
      endpoint="people"
      filters={[
        {
          name: 'role',
          label: 'Role',
          options: [...Object.entries(roleLabels).map(([value, label]) => ({ value, label })), { value: 'none', label: 'No profile yet' }],
        },
      ]}
      sorts={newestFirst}
      search="Search e-mail or name"
      searchHint="Finds people whose address, its domain (after the @), full name or the name's last word starts with what you type; start with @ to search domains only."
      rowKey={(p) => p.id}
      columns={[
        { label: 'Joined', render: (p) => when(p.createdAt) },
        {
          label: 'E-mail',
          render: (p) => (
            <RouterLink className="adm-link" to={`/admin/people/${p.id}`}>
              {p.email}
            </RouterLink>
          ),
        },
        { label: 'Name', render: (p) => p.profile?.full_name ?? '' },
        { label: 'Role', render: (p) => (p.profile?.role ? roleLabels[p.profile.role] : 'No profile yet') },
        { label: 'Last sign-in', render: (p) => when(p.lastSignInAt) },
      ]}
    />
  );
}

/** The audit log: what operators changed, newest first. Read only. */
export function AuditPage() {
  return (
    <ListView<AuditEntry>
      title="Audit log"
      endpoint="audit"
      csv={false}
      rowKey={(e) => e.id}
      columns={[
        { label: 'When', render: (e) => when(e.createdAt) },
        { label: 'Who', render: (e) => e.actorEmail },
        { label: 'What', render: (e) => actionLabel(e) },
        { label: 'Record', render: recordLabel },
        { label: 'IP', render: (e) => e.ip },
      ]}
    />
  );
}

/** recordLabel names what an audit entry changed the way founders know it: a person by name, a message by its sender. */
function recordLabel(e: AuditEntry): ReactNode {
  switch (e.targetType) {
    case 'user':
      return (
        <RouterLink className="adm-link" to={`/admin/people/${e.targetId}`}>
          {e.targetName || 'A deleted account'}
        </RouterLink>
      );
    case 'contact_message':
      return e.targetName ? `Message from ${e.targetName}` : 'A deleted message';
    case 'announcement':
      return e.targetName ? `Announcement: ${e.targetName}` : 'An announcement';
    case 'setting':
      return `Setting: ${LABELS[e.targetId]?.[0] ?? e.targetId}`;
  }
  return `${e.targetType} ${e.targetId}`;
}

function actionLabel(e: AuditEntry): string {
  if (e.action === 'message.update') {
    const parts: string[] = [];
    const status = e.detail.status as { to?: string } | undefined;
    if (status?.to) parts.push(status.to === 'handled' ? 'Marked message handled' : 'Reopened message');
    if (e.detail.note) parts.push('Changed the note');
    return parts.join('; ') || 'Updated message';
  }
  if (e.action === 'settings.update') return `Changed to ${settingValue(e.targetId, String(e.detail.to ?? '')) || '(empty)'}`;
  if (e.action === 'person.sign_out') return `Signed out everywhere (${String(e.detail.sessions ?? 0)} sessions)`;
  return e.action;
}
