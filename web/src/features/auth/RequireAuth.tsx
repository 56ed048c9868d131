import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from './AuthProvider';

/**
 * RequireAuth shows its children to a signed-in user; a visitor is sent to
 * /sign_up with ?next= set to the page they wanted, so signing in brings
 * them back.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useAuth();
  const { pathname, search } = useLocation();
  if (!isAuthenticated) {
    return <Navigate to={`/sign_up?next=${encodeURIComponent(pathname + search)}`} replace />;
  }
  return <>{children}</>;
}
