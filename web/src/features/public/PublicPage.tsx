import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import { PageHeader } from '../../components/PageHeader';
import { Footer } from '../../components/Footer';

/** An inner public page: the shared header with its title, the page's main content, the footer. */
export function PublicPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <PageHeader title={title} />
      <Box component="main" id="main" sx={{ flex: 1 }}>
        {children}
      </Box>
      <Footer />
    </>
  );
}

/** A full-width band of a page holding one section, centred at most 1200 px wide. */
export function Band({
  children,
  label,
  tone = 'plain',
  sx,
}: {
  children: ReactNode;
  /** The id of the section's heading, so the region is named by it. */
  label?: string;
  tone?: 'plain' | 'sand' | 'green' | 'white';
  sx?: SxProps<Theme>;
}) {
  const tones = {
    plain: { bgcolor: 'background.default' },
    sand: { bgcolor: '#f1e9dc' },
    green: { bgcolor: 'primary.main', color: 'primary.contrastText' },
    white: { bgcolor: 'background.paper' },
  };
  return (
    <Box component="section" aria-labelledby={label} sx={[tones[tone], { px: 2, py: { xs: 5, md: 8 } }, ...(Array.isArray(sx) ? sx : [sx])]}>
      <Box sx={{ maxWidth: 1200, mx: 'auto' }}>{children}</Box>
    </Box>
  );
}

/** A section heading (h2 unless told) with an id for its section's label. */
export function SectionTitle({
  id,
  children,
  level = 2,
  center,
  small,
}: {
  id?: string;
  children: ReactNode;
  level?: 2 | 3;
  center?: boolean;
  /** The size of an h3, whatever the level. */
  small?: boolean;
}) {
  const big = level === 2 && !small;
  return (
    <Typography
      id={id}
      component={`h${level}`}
      sx={{
        fontWeight: 800,
        fontSize: big ? { xs: '1.6rem', md: '2.2rem' } : { xs: '1.15rem', md: '1.3rem' },
        lineHeight: 1.2,
        mb: big ? 2 : 1,
        textAlign: center ? 'center' : undefined,
      }}
    >
      {children}
    </Typography>
  );
}

/** Small uppercase words above a heading. */
export function Eyebrow({ children, light }: { children: ReactNode; light?: boolean }) {
  return (
    <Typography sx={{ fontWeight: 800, letterSpacing: '0.12em', fontSize: '0.8rem', color: light ? '#f4d35e' : 'secondary.main', mb: 1 }}>
      {children}
    </Typography>
  );
}

const PILL_LOOKS = {
  /** Filled green, for light backgrounds. */
  solid: { variant: 'contained', sx: {} },
  /** Green outline, for light backgrounds. */
  outline: { variant: 'outlined', sx: { borderWidth: 2 } },
  /** Filled yellow, for the green bands. */
  sun: { variant: 'contained', sx: { bgcolor: '#f4d35e', color: '#1f2421', '&:hover': { bgcolor: '#f7df86' } } },
  /** White outline, for the green bands. */
  ghost: { variant: 'outlined', sx: { color: '#fff', borderColor: '#fff' } },
} as const;

/** A rounded call-to-action link to another page of the app. */
export function PillLink({ to, children, look = 'solid' }: { to: string; children: ReactNode; look?: keyof typeof PILL_LOOKS }) {
  const { variant, sx } = PILL_LOOKS[look];
  return (
    <Button component={RouterLink} to={to} variant={variant} size="large" sx={{ borderRadius: 999, px: 3, ...sx }}>
      {children}
    </Button>
  );
}
