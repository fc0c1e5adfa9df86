import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';
import * as dialogStyles from './dialog.css';
import { Button } from './button';
import { useModalDialog } from './dialog';
import { LAYER_ATTRIBUTE, openDialogLayer } from './dialog-layer';

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
 * "Are you sure?" before delete, block, disconnect, restore, on the platform's `<dialog>`
 * (dialog.tsx's `useModalDialog`), without React Aria: an `alertdialog` named by its title
 * and described by its message, Cancel focused first (the safe choice), Escape or a click outside
 * cancel — neither while the action is pending, when the confirm button spins and Cancel is
 * disabled. The action's result is owned by the caller (machine state). Renders nothing while
 * closed, so a screen that keeps it mounted pays for one component.
 */
export function ConfirmDialog({ isOpen, ...props }: ConfirmDialogProps) {
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
  // A layer of its own, as a Modal's: the toast region moves into the topmost one (dialog-layer.ts),
  // where a toast shown while this dialog is open (the action's failure) is above it and reachable.
  const layer = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => (layer.current ? openDialogLayer(layer.current) : undefined), []);
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
      className={cx(dialogStyles.modal, dialogStyles.size.sm)}
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
        <Button variant="secondary" data-cancel="" isDisabled={isPending} onPress={cancel}>
          {cancelLabel ?? t('common.cancel')}
        </Button>
        <Button variant={variant} isPending={isPending} pendingLabel={t('common.loading')} onPress={onConfirm}>
          {confirmLabel ?? t('common.confirm')}
        </Button>
      </div>
      <div ref={layer} {...{ [LAYER_ATTRIBUTE]: '' }} className={dialogStyles.layer} />
    </dialog>
  );
}
