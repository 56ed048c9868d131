import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { AESTHETICS } from '../data/aesthetics';

/** Props of AestheticGrid. */
export interface AestheticGridProps {
  selected: readonly string[];
  onToggle: (title: string) => void;
  /** Cards toggle only while editing. */
  editing: boolean;
  /** When given, an Edit / Done button switches edit mode. */
  onEditingChange?: (editing: boolean) => void;
  disabled?: boolean;
  error?: string;
}

/**
 * AestheticGrid shows the eight clothing aesthetic cards (illustration and
 * title; on small screens also the example styles). A card toggles only in
 * edit mode; a selected card is highlighted and carries a check mark.
 */
export function AestheticGrid({ selected, onToggle, editing, onEditingChange, disabled, error }: AestheticGridProps) {
  return (
    <Box>
      {onEditingChange && (
        <Button
          variant={editing ? 'contained' : 'outlined'}
          size="small"
          disabled={disabled}
          onClick={() => onEditingChange(!editing)}
          sx={{ mb: 1 }}
        >
          {editing ? 'Done choosing aesthetics' : 'Edit aesthetics'}
        </Button>
      )}
      <Box
        role="group"
        aria-label="Clothing aesthetics"
        sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' } }}
      >
        {AESTHETICS.map((a) => {
          const on = selected.includes(a.title);
          const locked = disabled || !editing;
          return (
            <ButtonBase
              key={a.title}
              role="checkbox"
              aria-checked={on}
              aria-disabled={locked || undefined}
              aria-label={a.title}
              onClick={() => {
                if (!locked) onToggle(a.title);
              }}
              sx={{
                position: 'relative',
                display: 'flex',
                flexDirection: 'column',
                alignItems: 'stretch',
                textAlign: 'left',
                borderRadius: 2,
                overflow: 'hidden',
                border: '3px solid',
                borderColor: on ? 'primary.main' : 'transparent',
                bgcolor: on ? '#e8f3ec' : 'background.paper',
                boxShadow: 1,
                opacity: locked && !on ? 0.75 : 1,
                cursor: locked ? 'default' : 'pointer',
              }}
            >
              <Box component="img" src={a.image} alt={a.alt} loading="lazy" width={120} height={160} sx={{ width: '100%', height: 'auto', aspectRatio: '3 / 4', display: 'block', bgcolor: 'grey.100' }} />
              {on && (
                <CheckCircleIcon
                  aria-hidden
                  data-testid="aesthetic-check"
                  sx={{ position: 'absolute', top: 6, right: 6, color: 'primary.main', bgcolor: '#fff', borderRadius: '50%' }}
                />
              )}
              <Box sx={{ p: 1 }}>
                <Typography variant="subtitle2" component="span" sx={{ fontWeight: 800, display: 'block' }}>
                  {a.title}
                </Typography>
                <Box component="ul" sx={{ display: { xs: 'block', sm: 'none' }, m: 0, pl: 2, fontSize: 12, color: 'text.secondary' }}>
                  {a.description.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </Box>
              </Box>
            </ButtonBase>
          );
        })}
      </Box>
      {error && (
        <Typography role="alert" variant="body2" color="error" sx={{ mt: 1 }}>
          {error}
        </Typography>
      )}
    </Box>
  );
}
