import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';
import type { ConfirmDialogProps } from './confirm-dialog';
import * as dialogStyles from './dialog.css';
import { NativeButton } from './native-button';
import { useModalDialog } from './native-overlay';
import * as styles from './native-overlay.css';

/**
 * {@link ConfirmDialog} (confirm-dialog.tsx) on the platform's `<dialog>` (native-overlay.tsx's
 * `useModalDialog`), without React Aria: an `alertdialog` named by its title and described by its
 * message, Cancel focused first (the safe choice), Escape or a click outside cancel — neither
 * while the action is pending, when the confirm button spins and Cancel is disabled. Renders
 * nothing while closed, so a screen that keeps it mounted pays for one component.
 */
export function NativeConfirmDialog({ isOpen, ...props }: ConfirmDialogProps) {
  return isOpen ? <OpenConfirmDialog {...props} /> : null;
}

function OpenConfirmDialog({
  onOpenChange,
  title,
  message,
  onConfirm,
  confirmLabel,
  cancelLabel,
  variant = 'primary',
  isPending = false,
}: Omit<ConfirmDialogProps, 'isOpen'>) {
  const { t } = useTranslation();
  const titleId = useId();
  const messageId = useId();
  const cancel = () => {
    if (!isPending) onOpenChange(false);
  };
  const { dialogProps } = useModalDialog({
    onClose: cancel,
    isDismissable: !isPending,
    isKeyboardDismissDisabled: isPending,
    initialFocus: (dialog) => dialog.querySelector<HTMLElement>('[data-cancel]'),
  });
  return (
    <dialog
      {...dialogProps}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      tabIndex={-1}
      className={cx(styles.modal, dialogStyles.size.sm)}
    >
      <div className={dialogStyles.header}>
        <h2 id={titleId} className={dialogStyles.title}>
          {title}
        </h2>
      </div>
      <div className={dialogStyles.body}>
        <p id={messageId} className={dialogStyles.message}>
          {message}
        </p>
      </div>
      <div className={dialogStyles.footer}>
        <NativeButton variant="secondary" data-cancel="" isDisabled={isPending} onPress={cancel}>
          {cancelLabel ?? t('common.cancel')}
        </NativeButton>
        <NativeButton variant={variant} isPending={isPending} pendingLabel={t('common.loading')} onPress={onConfirm}>
          {confirmLabel ?? t('common.confirm')}
        </NativeButton>
      </div>
    </dialog>
  );
}
