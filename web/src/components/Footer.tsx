import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { Logo } from './Logo';
import { SocialLinks } from './SocialLinks';
import { useSupportEmail } from './useSupportEmail';

const HELP = [
  { label: 'Contact us', to: '/contact' },
  { label: 'About Us', to: '/about' },
  { label: 'Wardrobe Clearance', to: '/wardrobeclearance' },
  { label: 'Our Impact', to: '/impact' },
];
const LEGAL = [
  { label: 'Privacy Policy', to: '/privacy' },
  { label: 'Terms and Conditions', to: '/termsandconditions' },
];

const headingSx = { fontSize: '1rem', fontWeight: 800, mb: 1.5, letterSpacing: '0.04em', textTransform: 'uppercase' } as const;

function Column({ title, links }: { title: string; links: { label: string; to: string }[] }) {
  return (
    <Box>
      <Typography component="h2" sx={headingSx}>
        {title}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
        {links.map((l) => (
          <li key={l.to}>
            <Link component={RouterLink} to={l.to} color="inherit" underline="hover">
              {l.label}
            </Link>
          </li>
        ))}
      </Box>
    </Box>
  );
}

/** The site footer: Help and Legal Info columns, the support e-mail, social links and the copyright year. */
export function Footer() {
  const email = useSupportEmail();
  return (
    <Box component="footer" sx={{ mt: 'auto', bgcolor: 'primary.main', color: 'primary.contrastText', px: 2, pt: 5, pb: 3 }}>
      <Box sx={{ maxWidth: 1200, mx: 'auto' }}>
        <Box
          sx={{
            display: 'grid',
            gap: 4,
            gridTemplateColumns: { xs: '1fr', md: '1.5fr 2fr 1.5fr' },
          }}
        >
          <Box>
            <Logo light />
            <Typography sx={{ mt: 1.5, maxWidth: 320, opacity: 0.92 }}>
              Pre-loved clothes from Lusaka, picked with care and passed on.
            </Typography>
          </Box>
          <Box component="nav" aria-label="Footer" sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 3 }}>
            <Column title="Help" links={HELP} />
            <Column title="Legal Info" links={LEGAL} />
          </Box>
          <Box>
            <Typography component="h2" sx={headingSx}>
              Get in touch
            </Typography>
            <Link href={`mailto:${email}`} color="inherit" sx={{ display: 'inline-block', mb: 2, wordBreak: 'break-all' }}>
              {email}
            </Link>
            <SocialLinks light />
          </Box>
        </Box>
        <Typography variant="body2" sx={{ mt: 5, pt: 2, borderTop: '1px solid rgba(255,255,255,0.25)', opacity: 0.92 }}>
          © {new Date().getFullYear()} Salaula. All rights reserved.
        </Typography>
      </Box>
    </Box>
  );
}
