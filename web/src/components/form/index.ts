/**
 * The plain form kit: fields, choices, buttons, alerts and a spinner with
 * MUI's look and Salaula's theme, without MUI or Emotion, so a form page's
 * first load stays small. Props follow MUI's so a page converts one for one.
 * Its CSS (styles/forms.css) is imported here and loads with the form chunk.
 */
export { Alert, type AlertProps, type Severity } from './Alert';
export { Button, Spinner, type ButtonProps } from './Button';
export { Checkbox, RadioGroup, type CheckboxProps, type RadioGroupProps, type RadioOption } from './Choice';
export { FormIcon, type FormIconName } from './icons';
export { Select, TextField, type HtmlInputProps, type SelectProps, type TextFieldProps } from './TextField';
export { cx } from './cx';
