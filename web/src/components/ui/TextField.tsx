import { useId, type ChangeEvent, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import '../../styles/ui.css';
import { cx, describedBy } from './cx';

/** Attributes passed straight to the <input>, <textarea> or <select> (maxLength, inputMode, pattern, aria-*...). */
export type HtmlInputProps = InputHTMLAttributes<HTMLInputElement> & Record<`data-${string}`, string | undefined>;

/** What TextField and Select share. */
interface FieldBaseProps {
  /** The control's id; one is made when absent. The helper line is `${id}-helper`. */
  id?: string;
  name?: string;
  /** The visible label, which is also the control's accessible name. */
  label?: ReactNode;
  /** Marks the field in error: red outline, aria-invalid, and helperText read as the error. */
  error?: boolean;
  /** The line under the field (the error message when `error`), tied to the control by aria-describedby. */
  helperText?: ReactNode;
  disabled?: boolean;
  required?: boolean;
  /** Takes the whole width of its container. */
  fullWidth?: boolean;
  /** 'box' (a rounded box, the default) or 'line' (underlined). */
  variant?: 'box' | 'line';
  size?: 'small' | 'medium';
  className?: string;
  /** Attributes put on the control itself (maxLength, inputMode, aria-label...). */
  inputProps?: HtmlInputProps;
}

/** Props of TextField. */
export interface TextFieldProps extends FieldBaseProps {
  value: string;
  onChange?: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  onBlur?: () => void;
  type?: string;
  autoComplete?: string;
  placeholder?: string;
  autoFocus?: boolean;
  /** A <textarea> instead of an <input>. */
  multiline?: boolean;
  rows?: number;
  minRows?: number;
  /** Shown inside the box before / after the text (a prefix, a show-password button). */
  startAdornment?: ReactNode;
  endAdornment?: ReactNode;
}

/** useFieldIds gives a field's control id and its helper line's id. */
function useFieldIds(id: string | undefined) {
  const made = useId();
  const controlId = id ?? `field${made.replace(/:/g, '')}`;
  return { controlId, helperId: `${controlId}-helper` };
}

function fieldClass(p: FieldBaseProps, extra?: string) {
  return cx(
    'fk-field',
    p.fullWidth && 'fk-full',
    p.variant === 'line' && 'fk-standard',
    p.size === 'small' && 'fk-small',
    p.error && 'fk-error',
    p.disabled && 'fk-disabled',
    extra,
    p.className,
  );
}

/** FieldFrame is the label, the box around the control, and the helper line. */
function FieldFrame({
  base,
  controlId,
  helperId,
  start,
  end,
  children,
}: {
  base: FieldBaseProps;
  controlId: string;
  helperId: string;
  start?: ReactNode;
  end?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={fieldClass(base)}>
      {base.label != null && (
        <label className="fk-label" htmlFor={controlId}>
          {base.label}
          {base.required && (
            <span className="fk-req" aria-hidden="true">
              {' *'}
            </span>
          )}
        </label>
      )}
      <div className="fk-box">
        {start != null && <span className="fk-adorn fk-adorn-start">{start}</span>}
        {children}
        {end != null && <span className="fk-adorn fk-adorn-end">{end}</span>}
      </div>
      {hasHelper(base.helperText) && (
        <p className="fk-helper" id={helperId}>
          {base.helperText}
        </p>
      )}
    </div>
  );
}

/** hasHelper tells whether a helper line is shown (so aria-describedby may point at it). */
function hasHelper(helperText: ReactNode): boolean {
  return helperText != null && helperText !== '' && helperText !== false;
}

/**
 * TextField is a labelled text input (or textarea with `multiline`) with its
 * helper or error line under it: the label names the control, the line is
 * tied to it by aria-describedby, and `error` sets aria-invalid.
 */
export function TextField(props: TextFieldProps) {
  const { controlId, helperId } = useFieldIds(props.id);
  const html = props.inputProps ?? {};
  const start = props.startAdornment;
  const end = props.endAdornment;
  const shared = {
    ...html,
    id: controlId,
    name: props.name,
    className: cx('fk-input', html.className),
    value: props.value,
    onChange: props.onChange,
    onBlur: props.onBlur,
    disabled: props.disabled,
    required: props.required,
    placeholder: props.placeholder,
    autoComplete: props.autoComplete,
    autoFocus: props.autoFocus,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': describedBy(html['aria-describedby'], hasHelper(props.helperText) ? helperId : undefined),
  } as const;
  return (
    <FieldFrame base={props} controlId={controlId} helperId={helperId} start={start} end={end}>
      {props.multiline ? (
        <textarea
          {...(shared as unknown as TextareaHTMLAttributes<HTMLTextAreaElement>)}
          rows={props.rows ?? props.minRows ?? 3}
        />
      ) : (
        <input {...shared} type={props.type ?? 'text'} />
      )}
    </FieldFrame>
  );
}

/** Props of Select: a TextField whose control is a native <select> of the given <option>s. */
export interface SelectProps extends FieldBaseProps {
  value: string;
  onChange?: (e: ChangeEvent<HTMLSelectElement>) => void;
  autoComplete?: string;
  /** The <option> elements. */
  children: ReactNode;
}

/**
 * Select is a labelled native <select> (the phone's own picker), in the same
 * box, with the same label, helper line and error wiring as TextField.
 * Without a visible label, give it `inputProps['aria-label']`.
 */
export function Select(props: SelectProps) {
  const { controlId, helperId } = useFieldIds(props.id);
  const html = (props.inputProps ?? {}) as SelectHTMLAttributes<HTMLSelectElement>;
  return (
    <FieldFrame base={props} controlId={controlId} helperId={helperId}>
      <select
        {...html}
        id={controlId}
        name={props.name}
        className={cx('fk-input', html.className)}
        value={props.value}
        onChange={props.onChange}
        disabled={props.disabled}
        required={props.required}
        autoComplete={props.autoComplete}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(html['aria-describedby'], hasHelper(props.helperText) ? helperId : undefined)}
      >
        {props.children}
      </select>
    </FieldFrame>
  );
}
