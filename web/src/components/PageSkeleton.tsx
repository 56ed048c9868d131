import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';

/** The full-page placeholder (header, hero, long sections) shown while the app starts. */
export function PageSkeleton() {
  return (
    <Box role="status" aria-live="polite" aria-label="Loading Salaula" data-testid="page-skeleton" sx={{ p: { xs: 2, md: 4 } }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 3 }}>
        <Skeleton variant="circular" width={40} height={40} />
        <Skeleton variant="rounded" height={40} sx={{ flex: 1, maxWidth: 600 }} />
        <Skeleton variant="circular" width={32} height={32} />
      </Stack>
      <Skeleton variant="rounded" height={260} sx={{ mb: 3 }} />
      <Stack spacing={2}>
        <Skeleton variant="rounded" height={140} />
        <Skeleton variant="rounded" height={140} />
        <Skeleton variant="rounded" height={140} />
      </Stack>
    </Box>
  );
}
