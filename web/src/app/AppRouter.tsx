import { useState } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { AppLayout } from './AppLayout';
import { ROUTES, SIGN_IN_PATH, maySignIn, type RouteDef } from './routes';

/** Every route under the one shared layout; any unknown path redirects to /404. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        {ROUTES.map(({ path, page: Page, signedIn }) => (
          <Route key={path} path={path} element={signedIn ? <SignedInOnly page={Page} /> : <Page />} />
        ))}
        <Route path="*" element={<Navigate to="/404" replace />} />
      </Route>
    </Routes>
  );
}

/**
 * SignedInOnly shows a signed-in-only page, or sends a browser that holds no
 * session to sign-in (and back with ?next=) without fetching the page's
 * code. It decides once, when the page opens: a page that signs its person
 * out (a deleted account) keeps showing what it says, and the page's own
 * RequireAuth makes the full check.
 */
function SignedInOnly({ page: Page }: { page: RouteDef['page'] }) {
  const [maybe] = useState(maySignIn);
  const { pathname, search } = useLocation();
  if (!maybe) return <Navigate to={`${SIGN_IN_PATH}?next=${encodeURIComponent(pathname + search)}`} replace />;
  return <Page />;
}
