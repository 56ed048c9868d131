import { createTheme } from '@mui/material/styles';
import { BREAKPOINTS, SPACING_UNIT_PX } from '../config/constants';

/** The keyboard focus ring: orange outside a dark edge, visible on light and on green backgrounds. */
const FOCUS_RING = { outline: '3px solid #f4a261', outlineOffset: 2, boxShadow: '0 0 0 2px #1f2421' } as const;

/**
 * Salaula's MUI theme (forms and the console): the spec's breakpoints and
 * spacing, colours with AA contrast, the same as styles/site.css (which also
 * sets the page's baseline and the focus ring for everything else).
 */
export const theme = createTheme({
  breakpoints: { values: { ...BREAKPOINTS } },
  spacing: SPACING_UNIT_PX,
  palette: {
    primary: { main: '#1b4332', contrastText: '#ffffff' },
    secondary: { main: '#9c4221', contrastText: '#ffffff' },
    background: { default: '#fbf8f3', paper: '#ffffff' },
    text: { primary: '#1f2421', secondary: '#4a524d' },
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    // The spec's words as written: its capitalised labels are already in capitals.
    button: { fontWeight: 700, textTransform: 'none' },
  },
  components: {
    MuiButtonBase: {
      defaultProps: { disableRipple: false },
      // MUI buttons reset the outline: give them the same visible ring as everything else.
      styleOverrides: { root: { '&.Mui-focusVisible': FOCUS_RING } },
    },
  },
});
