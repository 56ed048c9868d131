import { useRef, type ReactNode } from 'react';
import { Dialog as RadixDialog } from 'radix-ui';
import '../../styles/ui.css';
import { cx } from './cx';
import { FormIcon } from './icons';

/** Props of Dialog. */
export interface DialogProps {
  open: boolean;
  /** Called with false when the person closes it (Escape, a click outside, the close button). */
  onOpenChange: (open: boolean) => void;
  /** The heading, which also names the dialog. */
  title: ReactNode;
  /** Shown under the title and read as the dialog's description. */
  description?: ReactNode;
  children: ReactNode;
  /** 'center' (a card in the middle, the default) or 'left' (a drawer along the left edge). */
  side?: 'center' | 'left';
  /** Words of the close button in the corner (an icon button); none when absent. */
  closeLabel?: string;
  className?: string;
  /** The id of the dialog box (for aria-controls on what opens it). */
  id?: string;
}

/**
 * Dialog is a modal on Radix's Dialog: focus moves into it and is kept there,
 * Escape or a click outside closes it, focus goes back to what opened it, and
 * the page behind is hidden from screen readers while it is open.
 */
export function Dialog({ open, onOpenChange, title, description, children, side = 'center', closeLabel, className, id }: DialogProps) {
  // Focus goes back to what was focused when the dialog opened (Radix does it only for its own trigger).
  const opener = useRef<HTMLElement | null>(null);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="ui-overlay" />
        <RadixDialog.Content
          id={id}
          onOpenAutoFocus={() => (opener.current = document.activeElement as HTMLElement | null)}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            opener.current?.focus();
          }}
          className={cx('ui-dialog', side === 'left' && 'ui-drawer', className)}
          // Without a description, say so rather than have Radix warn.
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className="ui-dialog-head">
            <RadixDialog.Title className="ui-dialog-title">{title}</RadixDialog.Title>
            {closeLabel && (
              <RadixDialog.Close className="fk-icon-btn" aria-label={closeLabel}>
                <FormIcon name="close" />
              </RadixDialog.Close>
            )}
          </div>
          {description && <RadixDialog.Description className="ui-dialog-desc">{description}</RadixDialog.Description>}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** DialogActions is the row of buttons at the foot of a dialog, right-aligned. */
export function DialogActions({ children }: { children: ReactNode }) {
  return <div className="ui-dialog-actions">{children}</div>;
}
