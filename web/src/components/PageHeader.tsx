import AppBar from '@mui/material/AppBar';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';

/** The shared header of inner pages: logo to /, the page's title centred. */
export function PageHeader({ title }: { title: string }) {
  return (
    <AppBar position="sticky" color="default" elevation={1} component="header">
      <Toolbar sx={{ justifyContent: 'space-between' }}>
        <RouterLink to="/" aria-label="Salaula home">
          <img src="/favicon.svg" alt="Salaula" width={36} height={36} />
        </RouterLink>
        <Typography variant="h6" component="h1" sx={{ flex: 1, textAlign: 'center', fontWeight: 800 }}>
          {title}
        </Typography>
        <span style={{ width: 36 }} />
      </Toolbar>
    </AppBar>
  );
}
