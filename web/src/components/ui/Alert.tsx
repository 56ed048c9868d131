import type { ReactNode } from 'react';
import '../../styles/ui.css';
import { cx } from './cx';
import { FormIcon, type FormIconName } from './icons';

/** How serious an Alert is: its colour, its icon and (by default) its role. */
export type Severity = 'error' | 'warning' | 'info' | 'success';

const ICONS: Record<Severity, FormIconName> = {
  success: 'successOutlined',
  info: 'infoOutlined',
  warning: 'warningOutlined',
  error: 'errorOutlined',
};

/** Props of Alert. */
export interface AlertProps {
  severity?: Severity;
  /** 'standard' (light, the default) or 'filled' (strong colour, white text). */
  variant?: 'standard' | 'filled';
  /**
   * role="alert" (read out at once) for errors and warnings, role="status"
   * (read out politely) for success and information, unless given: e.g.
   * role="note" for a notice that is part of the page.
   */
  role?: 'alert' | 'status' | 'note';
  /** A bold first line. */
  title?: ReactNode;
  /** Replaces the severity's icon; false shows none. */
  icon?: ReactNode | false;
  /** A button at the end (e.g. "Don't send"). */
  action?: ReactNode;
  id?: string;
  className?: string;
  children?: ReactNode;
}

/** Alert is a coloured message box with an icon: errors as alerts, success and information as status messages. */
export function Alert({ severity = 'success', variant = 'standard', role, title, icon, action, id, className, children }: AlertProps) {
  const shownRole = role ?? (severity === 'error' || severity === 'warning' ? 'alert' : 'status');
  return (
    <div
      id={id}
      role={shownRole}
      className={cx('fk-alert', `fk-alert-${severity}`, variant === 'filled' && 'fk-alert-filled', className)}
    >
      {icon !== false && (
        <div className="fk-alert-icon" aria-hidden="true">
          {icon ?? <FormIcon name={ICONS[severity]} />}
        </div>
      )}
      <div className="fk-alert-msg">
        {title != null && <div className="fk-alert-title">{title}</div>}
        {children}
      </div>
      {action != null && <div className="fk-alert-action">{action}</div>}
    </div>
  );
}
