import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';

/** The site footer: Help and Legal Info columns, support e-mail, copyright. */
export function Footer() {
  return (
    <Box component="footer" sx={{ mt: 'auto', py: 4, px: 2, bgcolor: 'primary.main', color: 'primary.contrastText' }}>
      <Box component="nav" aria-label="Footer" sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <Link component={RouterLink} to="/contact" color="inherit">Contact us</Link>
        <Link component={RouterLink} to="/about" color="inherit">About Us</Link>
        <Link component={RouterLink} to="/privacy" color="inherit">Privacy Policy</Link>
        <Link component={RouterLink} to="/termsandconditions" color="inherit">Terms and Conditions</Link>
      </Box>
      <Typography variant="body2" sx={{ mt: 2 }}>© {new Date().getFullYear()} Salaula</Typography>
    </Box>
  );
}
