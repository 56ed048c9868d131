import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { BrowserRouter } from 'react-router';
import { theme } from './theme';
import { AppRoutes } from './AppRouter';
import { AuthProvider } from '../features/auth/AuthProvider';

/** The whole app: theme, the auth state, the router and the routes. */
export function App() {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <AuthProvider>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AuthProvider>
    </ThemeProvider>
  );
}
