import { useEffect, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useLeadToProblem } from '../../lib/leadToProblem';
import { useAuth } from '../auth/AuthProvider';
import { uploadImage } from '../onboarding/api';
import { adminGet, adminSend } from './api';

/** GET /admin/v1/settings. */
interface AdminSettings {
  keys: string[];
  values: Record<string, string>;
  defaults: Record<string, string>;
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

/** One setting: its value, saved on its own (each change goes to the audit log). */
function SettingField({ name, value, fallback, onSaved }: { name: string; value: string; fallback: string; onSaved: (s: AdminSettings) => void }) {
  const leadRef = useLeadToProblem();
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState('');
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  /** The portrait's upload, 0 to 100, while it goes. */
  const [sent, setSent] = useState<number>();
  // A new saved value replaces the draft (during render, not after it).
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setDraft(value);
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
      setError(err instanceof Error ? err.message : String(err));
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
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };
  return (
    <Box component="form" ref={leadRef} noValidate onSubmit={save} aria-label={label} sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
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
        <Button type="submit" variant="outlined" disabled={busy || draft === value}>
          Save
        </Button>
      </Stack>
      {name.endsWith('.portrait') && (
        <Button component="label" variant="text" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
          Upload a portrait
          <input type="file" accept="image/jpeg,image/png,image/webp" hidden onChange={(e) => void upload(e.target.files?.[0])} />
        </Button>
      )}
      {sent !== undefined && (
        <LinearProgress variant="determinate" value={sent} aria-label="Portrait upload progress" aria-valuetext={`${sent}%`} sx={{ maxWidth: 240 }} />
      )}
      {saved && (
        <Typography role="status" variant="body2" color="success.main">
          Saved: {label} is now {value || '(empty)'}
        </Typography>
      )}
    </Box>
  );
}

/** Settings: the contact details, social accounts and team the public pages show. */
export function SettingsPage() {
  const [s, setS] = useState<AdminSettings>();
  const [error, setError] = useState('');
  useEffect(() => {
    adminGet<AdminSettings>('settings').then(setS, (err: Error) => setError(err.message));
  }, []);
  if (error) return <Alert severity="error">{error}</Alert>;
  if (!s) return <Typography role="status">Loading the settings...</Typography>;
  return (
    <Stack spacing={2.5}>
      <Typography variant="h5" component="h2">
        Settings
      </Typography>
      <Typography color="text.secondary">
        What the contact page, the footer and the About page show. A change shows to visitors on their next visit.
      </Typography>
      {s.keys.map((k) => (
        <SettingField key={k} name={k} value={s.values[k]} fallback={s.defaults[k]} onSaved={setS} />
      ))}
    </Stack>
  );
}
