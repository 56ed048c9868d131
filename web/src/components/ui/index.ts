/**
 * The app's component kit: every page outside the landing pages is built
 * from it, and the console uses it too. Styled only by the design tokens
 * (styles/tokens.css) in plain CSS (styles/ui.css, imported by the kit, so
 * it loads with the chunks that use it); no CSS-in-JS.
 *
 * - Button (variant solid | outline | plain | link, size, color inherit |
 *   danger, busy shows a spinner), ButtonLink (a link that looks like a
 *   Button), TextLink (a link inside text), Spinner.
 * - TextField (label, helperText, error, inputProps on the control,
 *   adornments), Select (a native select, best on phones), Checkbox,
 *   RadioGroup.
 * - Alert (severity, title, action; role alert or status by severity).
 * - On Radix primitives (focus, keyboard and screen readers handled there):
 *   Dialog (side="left" makes the drawer) with DialogActions, Menu, Tabs,
 *   ToastProvider with useToast.
 * - FormIcon: inline SVG icons (components/icons.tsx has the shell's).
 * - Layout classes in styles/ui.css: ui-main (a page's column; ui-main-xs
 *   narrower), fk-paper fk-paper-line ui-card (a card), fk-stack (a
 *   vertical stack; -s, -l), fk-h1, fk-h2, fk-sub, fk-muted, fk-body2.
 *
 * The Radix pieces are imported from their own modules
 * (`components/ui/Dialog`, `/Menu`, `/Tabs`, `/Toast`), not from this index,
 * so a page that does not use them does not load Radix.
 */
export { Alert, type AlertProps, type Severity } from './Alert';
export { Button, Spinner, type ButtonProps } from './Button';
export { Checkbox, RadioGroup, type CheckboxProps, type RadioGroupProps, type RadioOption } from './Choice';
export { FormIcon, type FormIconName } from './icons';
export { ButtonLink, TextLink } from './Link';
export { Select, TextField, type HtmlInputProps, type SelectProps, type TextFieldProps } from './TextField';
export { cx } from './cx';
