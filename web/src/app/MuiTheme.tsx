import type { ComponentType, ReactNode } from 'react';
import { ThemeProvider } from '@mui/material/styles';
import { theme } from './theme';

/**
 * MuiTheme gives MUI components Salaula's theme. Only the pages and parts that
 * use MUI (forms, sign-in, onboarding, the console, the side menu) load it, in
 * their own lazy chunks: the shell and the content pages are plain markup
 * styled by styles/site.css, which also does what CssBaseline did.
 */
export function MuiTheme({ children }: { children: ReactNode }) {
  return <ThemeProvider theme={theme}>{children}</ThemeProvider>;
}

/** withMuiTheme wraps a page component in MuiTheme. */
export function withMuiTheme<P extends object>(Page: ComponentType<P>): ComponentType<P> {
  function Themed(props: P) {
    return (
      <MuiTheme>
        <Page {...props} />
      </MuiTheme>
    );
  }
  Themed.displayName = `withMuiTheme(${Page.displayName ?? Page.name ?? 'Page'})`;
  return Themed;
}
