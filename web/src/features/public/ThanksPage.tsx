import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { PillLink } from './PublicPage';
import { Link as RouterLink } from 'react-router';
import { Logo } from '../../components/Logo';
import { SocialLinks } from '../../components/SocialLinks';

/** The thank-you page after onboarding or a waitlist: thanks, follow us, back home. */
export default function ThanksPage() {
  return (
    <Box component="main" id="main" sx={{ flex: 1, display: 'grid', placeItems: 'center', px: 2, py: 6, textAlign: 'center' }}>
      <Box sx={{ maxWidth: 560 }}>
        <Box component={RouterLink} to="/" aria-label="Salaula home" sx={{ textDecoration: 'none', display: 'inline-flex', borderRadius: 1, mb: 4 }}>
          <Logo size={44} />
        </Box>
        <Typography component="h1" sx={{ fontWeight: 900, fontSize: { xs: '2.4rem', md: '3rem' }, mb: 2 }}>
          Thank you!
        </Typography>
        <Typography sx={{ fontSize: '1.15rem', mb: 1 }}>
          Zikomo, and welcome to Salaula. You are in, and we will be in touch as soon as there is news.
        </Typography>
        <Typography sx={{ fontSize: '1.05rem', color: 'text.secondary', mb: 3 }}>
          While you wait, follow us for launch news, style picks and first looks at what is coming to our rails.
        </Typography>
        <Box sx={{ display: 'flex', justifyContent: 'center', mb: 4 }}>
          <SocialLinks />
        </Box>
        <PillLink to="/">RETURN TO HOME</PillLink>
      </Box>
    </Box>
  );
}
