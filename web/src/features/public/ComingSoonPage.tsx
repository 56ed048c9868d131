import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { PillLink } from './PublicPage';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { Logo } from '../../components/Logo';
import { FloatingImage } from './FloatingImage';

/**
 * The coming-soon page (/comingsoon, /help, /tracking, /categories): logo and
 * a floating image. A search sends people here with ?q=, so their words are
 * echoed back.
 */
export default function ComingSoonPage() {
  const [params] = useSearchParams();
  const q = params.get('q')?.trim();
  return (
    <Box component="main" id="main" sx={{ flex: 1, display: 'grid', placeItems: 'center', px: 2, py: 6, textAlign: 'center', background: 'radial-gradient(circle at 50% 30%, #f1e9dc, #fbf8f3 60%)' }}>
      <Box sx={{ maxWidth: 560 }}>
        <Box component={RouterLink} to="/" aria-label="Salaula home" sx={{ textDecoration: 'none', display: 'inline-flex', borderRadius: 1, mb: 3 }}>
          <Logo size={44} />
        </Box>
        <Box sx={{ mb: 2 }}>
          <FloatingImage />
        </Box>
        <Typography component="h1" sx={{ fontWeight: 900, fontSize: { xs: '2.2rem', md: '3rem' }, mb: 1.5 }}>
          Coming Soon
        </Typography>
        {q ? (
          <Typography sx={{ fontSize: '1.1rem', mb: 1 }}>
            Searching for <strong>&ldquo;{q}&rdquo;</strong>? Our rails are still being filled. Sign up and we will
            let you know the moment the shop opens.
          </Typography>
        ) : (
          <Typography sx={{ fontSize: '1.1rem', mb: 1 }}>
            We are still stitching this part of Salaula together. Sign up and you will be the first to know when it
            is ready.
          </Typography>
        )}
        <Box sx={{ display: 'flex', gap: 2, justifyContent: 'center', flexWrap: 'wrap', mt: 3 }}>
          <PillLink to="/sign_up">SIGN UP NOW</PillLink>
          <PillLink to="/" look="outline">RETURN TO HOME</PillLink>
        </Box>
      </Box>
    </Box>
  );
}
