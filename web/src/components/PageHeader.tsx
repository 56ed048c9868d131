import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import SupportIcon from '@mui/icons-material/SupportAgent';
import AccountIcon from '@mui/icons-material/AccountCircleOutlined';
import { useAccountLink } from './useAccountLink';
import { Link as RouterLink } from 'react-router';
import { Logo } from './Logo';

/**
 * The shared sticky header of inner pages: logo to /, the page's title
 * centred (the page's h1), and on the right the two ways people most often
 * need from an inner page: support (/contact) and their account (/sign_up).
 */
export function PageHeader({ title }: { title: string }) {
  const accountLink = useAccountLink();
  return (
    <Box
      component="header"
      sx={{
        position: 'sticky',
        top: 0,
        zIndex: 10,
        bgcolor: 'background.paper',
        borderBottom: '1px solid #e3ded5',
        boxShadow: '0 1px 4px rgba(0,0,0,0.04)',
      }}
    >
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr auto 1fr', alignItems: 'center', gap: 1, minHeight: 64, px: { xs: 1, sm: 2 }, maxWidth: 1200, mx: 'auto' }}>
        <Box component={RouterLink} to="/" aria-label="Salaula home" sx={{ textDecoration: 'none', justifySelf: 'start', display: 'inline-flex', borderRadius: 1 }}>
          <Box component="span" sx={{ display: { xs: 'none', sm: 'inline-flex' } }}>
            <Logo />
          </Box>
          <Box component="span" sx={{ display: { xs: 'inline-flex', sm: 'none' } }}>
            <Logo markOnly />
          </Box>
        </Box>
        <Typography
          variant="h6"
          component="h1"
          sx={{ textAlign: 'center', fontWeight: 800, fontSize: { xs: '1.05rem', sm: '1.3rem' }, lineHeight: 1.2 }}
        >
          {title}
        </Typography>
        <Box sx={{ justifySelf: 'end', display: 'flex' }}>
          <IconButton component={RouterLink} to="/contact" aria-label="Contact support">
            <SupportIcon />
          </IconButton>
          <IconButton component={RouterLink} to={accountLink} aria-label="Account">
            <AccountIcon />
          </IconButton>
        </Box>
      </Box>
    </Box>
  );
}
