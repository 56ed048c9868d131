import type { ButtonHTMLAttributes, ReactNode } from 'react';
import '../../styles/ui.css';
import { cx } from './cx';

/** Spinner is a turning ring in plain CSS; hidden from screen readers (say what is busy in words). */
export function Spinner({ className }: { className?: string }) {
  return <span className={cx('fk-spinner', className)} aria-hidden="true" />;
}

/** Props of Button: a native button's, plus its look, size, width and an icon before the words. */
export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** 'solid' (green), 'outline', 'plain' (the default: words only) or 'link' (a button that looks like a link). */
  variant?: 'solid' | 'outline' | 'plain' | 'link';
  size?: 'small' | 'medium' | 'large';
  /** 'inherit' takes the colour of the text around it (a button inside an alert); 'danger' is red (deleting). */
  color?: 'primary' | 'inherit' | 'danger';
  fullWidth?: boolean;
  startIcon?: ReactNode;
  /**
   * Busy: a spinner in front of the words, the button disabled and marked
   * aria-busy (the words stay the accessible name).
   */
  busy?: boolean;
}

/** Button is a native <button> (type="button" unless told otherwise). */
export function Button({
  variant = 'plain',
  size = 'medium',
  color = 'primary',
  fullWidth,
  startIcon,
  busy,
  disabled,
  className,
  type = 'button',
  children,
  ...rest
}: ButtonProps) {
  const icon = busy ? <Spinner /> : startIcon;
  return (
    <button
      {...rest}
      type={type}
      disabled={disabled || busy}
      aria-busy={busy || rest['aria-busy'] ? true : undefined}
      className={cx(
        'fk-btn',
        `fk-btn-${variant}`,
        size === 'small' && 'fk-btn-s',
        size === 'large' && 'fk-btn-l',
        color === 'inherit' && 'fk-btn-inherit',
        color === 'danger' && 'fk-btn-danger',
        fullWidth && 'fk-btn-full',
        className,
      )}
    >
      {icon != null && (
        <span className="fk-btn-icon" aria-hidden="true">
          {icon}
        </span>
      )}
      {children}
    </button>
  );
}
