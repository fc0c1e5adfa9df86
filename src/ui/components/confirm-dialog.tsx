import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import * as styles from './dialog.css';
import { Modal } from './dialog';

export interface ConfirmDialogProps {
  isOpen: boolean;
  /** Called with `false` on Cancel/Escape (never while pending). */
  onOpenChange: (isOpen: boolean) => void;
  title: ReactNode;
  message: ReactNode;
  /** Runs the action. The dialog does not close by itself: the caller closes it when the action ends. */
  onConfirm: () => void;
  /** Defaults to "Confirmar" ("Excluir" reads better for deletes: pass it). */
  confirmLabel?: string;
  cancelLabel?: string;
  /** `danger` for destructive actions: red confirm button. */
  variant?: 'primary' | 'danger';
  /** The action is running: confirm shows a spinner, nothing can close the dialog. */
  isPending?: boolean;
}

/**
 * "Are you sure?" before delete, block, disconnect, restore. An `alertdialog` whose initial focus
 * is Cancel (the safe choice), with the action's result owned by the caller (machine state).
 */
export function ConfirmDialog({
  isOpen,
  onOpenChange,
  title,
  message,
  onConfirm,
  confirmLabel,
  cancelLabel,
  variant = 'primary',
  isPending = false,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  const messageId = useId();
  return (
    <Modal
      role="alertdialog"
      aria-describedby={messageId}
      size="sm"
      title={title}
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      isPending={isPending}
      hideCloseButton
      footer={
        <>
          <Button variant="secondary" autoFocus isDisabled={isPending} onPress={() => onOpenChange(false)}>
            {cancelLabel ?? t('common.cancel')}
          </Button>
          <Button variant={variant} isPending={isPending} onPress={onConfirm}>
            {confirmLabel ?? t('common.confirm')}
          </Button>
        </>
      }
    >
      <p id={messageId} className={styles.message}>
        {message}
      </p>
    </Modal>
  );
}
