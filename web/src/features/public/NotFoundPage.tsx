import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';

/** The 404 page every unknown path redirects to. */
export default function NotFoundPage() {
  return (
    <Box component="main" id="main" sx={{ flex: 1, display: 'grid', placeItems: 'center', px: 2, py: 8, textAlign: 'center' }}>
      <Box sx={{ maxWidth: 560 }}>
        <Box component="img" src="/images/floating-hanger.svg" alt="" width={240} height={260} sx={{ width: 140, height: 'auto', mb: 2, transform: 'rotate(-12deg)' }} />
        <Typography variant="h2" component="h1" sx={{ fontWeight: 900, mb: 2, fontSize: { xs: '2.8rem', sm: '3.75rem' } }}>
          Oooppss!!
        </Typography>
        <Typography sx={{ mb: 4, fontSize: '1.1rem' }}>
          Hey friend, the page you are looking for does not exist yet or another error occurred.
        </Typography>
        <Button variant="contained" size="large" component={RouterLink} to="/" sx={{ borderRadius: 999, px: 4 }}>
          RETURN TO HOME
        </Button>
      </Box>
    </Box>
  );
}
