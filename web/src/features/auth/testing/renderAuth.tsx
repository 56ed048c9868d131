/**
 * renderAuth renders the auth screens as the app does (inside AuthProvider
 * and a router) at a path; any other path shows 'Now at {path}' so tests can
 * see where a screen sent the person.
 */
import { StrictMode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { AuthProvider } from '../AuthProvider';
import ResetPasswordPage from '../ResetPasswordPage';
import SecurityPage from '../SecurityPage';
import SelectRolePage from '../SelectRolePage';
import SignInPage from '../SignInPage';

function Elsewhere() {
  const { pathname, search } = useLocation();
  return <p>Now at {pathname + search}</p>;
}

/** renderAuth renders the app's auth routes starting at path; strict runs it in StrictMode as main.tsx does. */
export function renderAuth(path: string, { strict = false } = {}) {
  const app = (
    <AuthProvider>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/sign_up" element={<SignInPage />} />
          <Route path="/reset_password" element={<ResetPasswordPage />} />
          <Route path="/select_role" element={<SelectRolePage />} />
          <Route path="/account/security" element={<SecurityPage />} />
          <Route path="*" element={<Elsewhere />} />
        </Routes>
      </MemoryRouter>
    </AuthProvider>
  );
  return render(strict ? <StrictMode>{app}</StrictMode> : app);
}
