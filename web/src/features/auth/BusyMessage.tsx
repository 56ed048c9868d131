import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** BusyMessage is a spinner with a line of text, announced to screen readers as a status. */
export function BusyMessage({ text }: { text: string }) {
  return (
    <Stack role="status" spacing={2} sx={{ alignItems: 'center' }}>
      <CircularProgress aria-hidden />
      <Typography>{text}</Typography>
    </Stack>
  );
}
