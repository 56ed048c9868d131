import { BrowserRouter } from 'react-router';
import { AppRoutes } from './AppRouter';
import { AuthProvider } from '../features/auth/AuthProvider';

/**
 * The whole app: the auth state, the router and the routes. No MUI here: the
 * shell is styled by styles/site.css (inlined into index.html); the pages that
 * use MUI bring its theme with them (app/MuiTheme.tsx).
 */
export function App() {
  return (
    <AuthProvider>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AuthProvider>
  );
}
