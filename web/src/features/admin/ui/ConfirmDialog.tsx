import { AlertDialog } from 'radix-ui';
import { Button } from '../../../components/ui';

/**
 * ConfirmDialog asks before an action that cannot be taken back (Radix's
 * AlertDialog: focus kept inside, Escape or "Cancel" closes it). `question`
 * is its title; `confirm` names the button that goes ahead.
 */
export function ConfirmDialog({
  open,
  question,
  confirm,
  danger,
  onConfirm,
  onClose,
}: {
  open: boolean;
  question: string;
  confirm: string;
  danger?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <AlertDialog.Root open={open} onOpenChange={(o) => !o && onClose()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="adm-overlay" />
        <AlertDialog.Content className="adm-dialog" aria-describedby={undefined}>
          <AlertDialog.Title className="adm-dialog-title">{question}</AlertDialog.Title>
          <div className="adm-dialog-actions">
            <AlertDialog.Cancel asChild>
              <Button>Cancel</Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <Button variant="solid" className={danger ? 'adm-danger' : undefined} onClick={onConfirm}>
                {confirm}
              </Button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
