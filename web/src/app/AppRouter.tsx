import { Navigate, Route, Routes } from 'react-router';
import { AppLayout } from './AppLayout';
import { ROUTES } from './routes';

/** Every route under the one shared layout; any unknown path redirects to /404. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        {ROUTES.map(({ path, page: Page }) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route path="*" element={<Navigate to="/404" replace />} />
      </Route>
    </Routes>
  );
}
