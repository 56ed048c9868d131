import AppBar from '@mui/material/AppBar';
import Toolbar from '@mui/material/Toolbar';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
import { Link as RouterLink } from 'react-router';

/** The top navigation bar shown on / and /sign_up. */
export function TopNav() {
  return (
    <AppBar position="static" color="primary" component="nav" aria-label="Top">
      <Toolbar sx={{ gap: 1 }}>
        <Button color="inherit" component={RouterLink} to="/contact">Contact Us</Button>
        <Box sx={{ flex: 1, display: 'flex', justifyContent: 'center', gap: 1 }}>
          <Button color="inherit" component={RouterLink} to="/mens">Men</Button>
          <Button color="inherit" component={RouterLink} to="/womens">Women</Button>
        </Box>
        <Button color="inherit" component={RouterLink} to="/impact">Impact</Button>
        <Button color="inherit" component={RouterLink} to="/sign_up">Sign up</Button>
      </Toolbar>
    </AppBar>
  );
}
