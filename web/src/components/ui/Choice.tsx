import { useId, type ChangeEvent, type ReactNode } from 'react';
import '../../styles/ui.css';
import { cx, describedBy } from './cx';

/** Props of Checkbox. */
export interface CheckboxProps {
  id?: string;
  name?: string;
  checked: boolean;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  /** The text next to the box, which is also its accessible name (may hold a link). */
  label: ReactNode;
  disabled?: boolean;
  required?: boolean;
  /** The error line under the box: it sets aria-invalid and is tied by aria-describedby. */
  error?: ReactNode;
  /** Read as an alert when it appears (the onboarding forms' way). */
  errorRole?: 'alert';
  className?: string;
}

/**
 * Checkbox is a native checkbox in the theme's green with its label, and an
 * error line under it when `error` is set (aria-invalid, aria-describedby).
 */
export function Checkbox({ id, name, checked, onChange, label, disabled, required, error, errorRole, className }: CheckboxProps) {
  const made = useId();
  const boxId = id ?? `check${made.replace(/:/g, '')}`;
  const helperId = `${boxId}-helper`;
  const hasError = error != null && error !== '' && error !== false;
  return (
    <div className={cx('fk-check-field', hasError && 'fk-error', className)}>
      <label className={cx('fk-choice', 'fk-choice-top', disabled && 'fk-choice-disabled')}>
        <input
          type="checkbox"
          id={boxId}
          name={name}
          checked={checked}
          onChange={onChange}
          disabled={disabled}
          required={required}
          aria-invalid={hasError ? true : undefined}
          aria-describedby={hasError ? helperId : undefined}
        />
        <span>{label}</span>
      </label>
      {hasError && (
        <p className="fk-helper" id={helperId} role={errorRole}>
          {error}
        </p>
      )}
    </div>
  );
}

/** One choice of a RadioGroup. */
export interface RadioOption {
  value: string;
  /** What the person reads (the radio's accessible name). */
  label: ReactNode;
  disabled?: boolean;
}

/** Props of RadioGroup. */
export interface RadioGroupProps {
  /** The group's visible name, which also names the radiogroup. */
  label: ReactNode;
  name: string;
  value: string;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  options: readonly RadioOption[];
  /** The choices side by side (wrapping) rather than one under the other. */
  row?: boolean;
  disabled?: boolean;
  required?: boolean;
  /** Marks the group in error (aria-invalid). */
  error?: boolean;
  /** The line under the group (the error message when `error`), tied by aria-describedby. */
  helperText?: ReactNode;
  /** Read as an alert when it appears (the onboarding forms' way). */
  helperRole?: 'alert';
  /** The label's id (made when absent), for aria-labelledby elsewhere. */
  labelId?: string;
  className?: string;
  /** Extra class of the label (e.g. to make it bold or hide it visually). */
  labelClassName?: string;
}

/**
 * RadioGroup is a set of native radio buttons (arrow keys move between them)
 * in a role="radiogroup" named by its visible label; `error` sets
 * aria-invalid on it and the helper line is tied by aria-describedby.
 */
export function RadioGroup(props: RadioGroupProps) {
  const made = useId().replace(/:/g, '');
  const labelId = props.labelId ?? `radios${made}-label`;
  const helperId = `radios${made}-helper`;
  const hasHelper = props.helperText != null && props.helperText !== '' && props.helperText !== false;
  return (
    <div className={cx('fk-group', props.row && 'fk-row', props.error && 'fk-error', props.className)}>
      <span id={labelId} className={cx('fk-group-label', props.labelClassName)}>
        {props.label}
        {props.required && (
          <span className="fk-req" aria-hidden="true">
            {' *'}
          </span>
        )}
      </span>
      <div
        role="radiogroup"
        className="fk-options"
        aria-labelledby={labelId}
        aria-invalid={props.error ? true : undefined}
        aria-required={props.required ? true : undefined}
        aria-describedby={describedBy(hasHelper ? helperId : undefined)}
      >
        {props.options.map((o) => {
          const off = props.disabled || o.disabled;
          return (
            <label key={o.value} className={cx('fk-choice', off && 'fk-choice-disabled')}>
              <input
                type="radio"
                name={props.name}
                value={o.value}
                checked={props.value === o.value}
                onChange={props.onChange}
                disabled={off}
              />
              <span>{o.label}</span>
            </label>
          );
        })}
      </div>
      {hasHelper && (
        <p className="fk-helper" id={helperId} role={props.helperRole}>
          {props.helperText}
        </p>
      )}
    </div>
  );
}
