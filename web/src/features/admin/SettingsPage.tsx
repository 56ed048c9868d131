import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, TextField } from '../../components/ui';
import { useLeadToProblem } from '../../lib/leadToProblem';
import { useAuth } from '../auth/AuthProvider';
import { uploadImage } from '../onboarding/api';
import { localPhone } from '../../lib/words';
import { adminGet, adminKeys, adminSend, errorText } from './api';

/** GET /admin/v1/settings. */
interface AdminSettings {
  keys: string[];
  values: Record<string, string>;
  defaults: Record<string, string>;
  /** The contact details not set (so not shown on the site). */
  unset?: string[];
}

/** useSettings reads the settings (['admin', 'settings']): the settings page and the overview's notice of what is not set. */
export function useSettings() {
  return useQuery({ queryKey: adminKeys.settings, queryFn: ({ signal }) => adminGet<AdminSettings>('settings', signal) });
}

/** What each setting is called on the page, and a hint. */
export const LABELS: Record<string, [string, string?]> = {
  support_email: ['Support e-mail'],
  phone: ['Phone number', 'A Zambian number, e.g. 097 123 4567; shown as 097 123 4567, called with tel:'],
  whatsapp: ['WhatsApp number', 'A Zambian number; the link is https://wa.me/260...'],
  address: ['Postal address'],
  'social.facebook': ['Facebook', 'https:// address, hidden, or coming-soon'],
  'social.instagram': ['Instagram', 'https:// address, hidden, or coming-soon'],
  'social.x': ['X', 'https:// address, hidden, or coming-soon'],
  'social.linkedin': ['LinkedIn', 'https:// address, hidden, or coming-soon'],
  'social.youtube': ['YouTube', 'https:// address, hidden, or coming-soon'],
  'social.whatsapp': ['WhatsApp channel', 'https:// address, hidden, or coming-soon'],
  'team.1.name': ['First team member: name'],
  'team.1.role': ['First team member: role'],
  'team.1.text': ['First team member: text'],
  'team.1.portrait': ['First team member: portrait address', 'Empty for the drawn portrait'],
  'team.2.name': ['Second team member: name'],
  'team.2.role': ['Second team member: role'],
  'team.2.text': ['Second team member: text'],
  'team.2.portrait': ['Second team member: portrait address', 'Empty for the drawn portrait'],
};

/** settingValue is a setting's value as founders write it: a phone number in the local form (097 123 4567). */
export function settingValue(name: string, value: string): string {
  return name === 'phone' || name === 'whatsapp' ? localPhone(value) : value;
}

/** One setting: its value, saved on its own (each change goes to the audit log). */
function SettingField({ name, value, fallback }: { name: string; value: string; fallback: string }) {
  const client = useQueryClient();
  // The server answers with every setting: that answer is the cache's, and the audit log has one more line.
  const onSaved = (s: AdminSettings) => {
    client.setQueryData(adminKeys.settings, s);
    void client.invalidateQueries({ queryKey: adminKeys.list('audit') });
  };
  const leadRef = useLeadToProblem();
  const [draft, setDraft] = useState(settingValue(name, value));
  const [error, setError] = useState('');
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  /** The portrait's upload, 0 to 100, while it goes. */
  const [sent, setSent] = useState<number>();
  // A new saved value replaces the draft (during render, not after it).
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setDraft(settingValue(name, value));
  }
  const { user } = useAuth();
  const [label, hint] = LABELS[name] ?? [name];
  const store = async (value: string) => {
    setBusy(true);
    setError('');
    setSaved(false);
    try {
      onSaved(await adminSend<AdminSettings>('PUT', `settings/${encodeURIComponent(name)}`, { value }));
      setSaved(true);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    void store(draft);
  };
  // A portrait is uploaded like a profile photo (shrunk in the browser, checked and resized by the
  // server) into the operator's media folder; the setting keeps its public path.
  const upload = async (file: File | undefined) => {
    if (!file || !user) return;
    setBusy(true);
    setError('');
    try {
      setSent(0);
      const url = await uploadImage(file, (fileName) => `${user.id}/portraits/${Date.now()}-${fileName}`, {
        shrink: { webp: true }, // shown on the public About page: always WebP
        onProgress: ({ loaded, total }) => setSent(total > 0 ? Math.round((loaded / total) * 100) : 0),
      });
      setSent(undefined);
      const path = new URL(url, window.location.origin).pathname;
      setDraft(path);
      await store(path);
    } catch (err) {
      setSent(undefined);
      setError(errorText(err));
      setBusy(false);
    }
  };
  return (
    <form ref={leadRef} noValidate onSubmit={save} aria-label={label} className="adm-stack">
      <div className="adm-row adm-row-top">
        <TextField
          label={label}
          value={draft}
          onChange={(e) => {
            setDraft(e.target.value);
            setSaved(false);
          }}
          error={Boolean(error)}
          helperText={error || hint || (value === fallback ? 'The default' : `Default: ${fallback}`)}
          size="small"
          fullWidth
          multiline={name.endsWith('.text')}
        />
        <Button type="submit" variant="outline" disabled={busy || draft === settingValue(name, value)} style={{ marginTop: 26 }}>
          Save
        </Button>
      </div>
      {name.endsWith('.portrait') && (
        <label className={`fk-btn fk-btn-text${busy ? ' adm-disabled' : ''}`} style={{ alignSelf: 'flex-start' }}>
          Upload a portrait
          <input type="file" accept="image/jpeg,image/png,image/webp" hidden disabled={busy} onChange={(e) => void upload(e.target.files?.[0])} />
        </label>
      )}
      {sent !== undefined && (
        <div role="progressbar" aria-label="Portrait upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={sent} aria-valuetext={`${sent}%`} className="adm-bar-track" style={{ maxWidth: 240 }}>
          <div className="adm-bar-fill" style={{ width: `${sent}%` }} />
        </div>
      )}
      {saved && (
        <p role="status" className="adm-small" style={{ color: 'var(--color-success)' }}>
          Saved: {label} is now {settingValue(name, value) || '(empty)'}
        </p>
      )}
    </form>
  );
}

/** Settings: the contact details, social accounts and team the public pages show. */
export function SettingsPage() {
  const settings = useSettings();
  const s = settings.data;
  if (settings.error && !s) return <Alert severity="error">{errorText(settings.error)}</Alert>;
  if (!s) return <p role="status">Loading the settings...</p>;
  return (
    <div className="adm-stack adm-stack-l">
      <h2 className="adm-h1" style={{ marginBottom: 0 }}>
        Settings
      </h2>
      <p className="adm-muted">What the contact page, the footer and the About page show. A change shows to visitors on their next visit.</p>
      {s.keys.map((k) => (
        <SettingField key={k} name={k} value={s.values[k]} fallback={s.defaults[k]} />
      ))}
    </div>
  );
}
