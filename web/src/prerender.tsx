/**
 * The build's prerendering (scripts/prerender.mjs): the content pages as HTML,
 * signed out, so a visitor on a slow connection reads them as soon as the
 * first second's skeleton ends, before the app's code has arrived. The app
 * then starts as usual and replaces this HTML with the same page.
 */
import { renderToString } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router';
import { AppLayout } from './app/AppLayout';
import { ROUTES } from './app/routes';
import { AuthContext, type AuthState } from './lib/auth';

/** The pages prerendered: content only, no form a visitor could start typing into before the app runs. */
export const PRERENDERED = ['/', '/about', '/impact', '/mens', '/womens', '/privacy', '/termsandconditions'];

const signedOut: AuthState = { isAuthenticated: false, user: null, loading: false, login: () => {}, logout: async () => {} };
const noSkeleton = () => 0;

/** render returns the HTML of the page at path, as the app shows it to a visitor who is signed out. */
export async function render(path: string): Promise<string> {
  const route = ROUTES.find((r) => r.path === path);
  if (!route) throw new Error(`prerender: no route ${path}`);
  await route.page.preload();
  const Page = route.page;
  return renderToString(
    <AuthContext.Provider value={signedOut}>
      <StaticRouter location={path}>
        <Routes>
          <Route element={<AppLayout skeletonMs={noSkeleton} />}>
            <Route path={path} element={<Page />} />
          </Route>
        </Routes>
      </StaticRouter>
    </AuthContext.Provider>,
  );
}
