import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import '../../styles/ui.css';
import { cx } from './cx';

/** TextLink is a link inside text, to a page of the app (`to`) or anywhere else (`href`). */
export function TextLink({ to, href, children, className }: { to?: string; href?: string; children: ReactNode; className?: string }) {
  const cls = cx('ui-link', className);
  return to !== undefined ? <RouterLink to={to} className={cls}>{children}</RouterLink> : <a href={href} className={cls}>{children}</a>;
}

/** ButtonLink is a link to a page of the app that looks like a Button (solid, outline or plain). */
export function ButtonLink({ to, children, variant = 'plain', size, className }: {
  to: string;
  children: ReactNode;
  variant?: 'solid' | 'outline' | 'plain';
  size?: 'small' | 'medium' | 'large';
  className?: string;
}) {
  return (
    <RouterLink to={to} className={cx('fk-btn', `fk-btn-${variant}`, size === 'small' && 'fk-btn-s', size === 'large' && 'fk-btn-l', className)}>
      {children}
    </RouterLink>
  );
}
