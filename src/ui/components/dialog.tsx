import type { ReactNode } from 'react';
import { Dialog as RACDialog, Heading } from 'react-aria-components/Dialog';
import { Modal as RACModal, ModalOverlay } from 'react-aria-components/Modal';
import { useTranslation } from 'react-i18next';
import { IconButton } from './button';
import { cx } from './class-names';
import * as styles from './dialog.css';
import { CloseIcon } from './icons';

export interface ModalProps {
  /** Heading of the dialog; it names the dialog for screen readers. */
  title: ReactNode;
  /** Content; a function receives `close` (e.g. for a Cancel button). */
  children: ReactNode | ((close: () => void) => ReactNode);
  /** Buttons at the bottom, right-aligned; a function receives `close`. */
  footer?: ReactNode | ((close: () => void) => ReactNode);
  size?: keyof typeof styles.size;
  /** Controlled open state, for dialogs opened by something other than a trigger. */
  isOpen?: boolean;
  onOpenChange?: (isOpen: boolean) => void;
  /** Called when the dialog asks to close (×, Escape, a click outside, `close()`), never while pending. */
  onClose?: () => void;
  /** Close on a click outside; Escape always closes unless `isKeyboardDismissDisabled`. */
  isDismissable?: boolean;
  isKeyboardDismissDisabled?: boolean;
  /** `alertdialog` for confirmations that interrupt. */
  role?: 'dialog' | 'alertdialog';
  /** Hide the × button. */
  hideCloseButton?: boolean;
  /**
   * Its action is running: nothing closes it (no ×, no click outside, no Escape, and a `close()`
   * from a footer or a child is not passed on to `onOpenChange`) until the call has answered.
   */
  isPending?: boolean;
  className?: string;
  /** Id of the text that describes the dialog (an `alertdialog` should have one). */
  'aria-describedby'?: string;
}

/**
 * A modal dialog (RAC `ModalOverlay` + `Modal` + `Dialog`): focus is trapped inside and returns
 * on close, the page behind is inert and does not scroll, Escape closes. Header with title and a
 * named close button, a scrolling body, and a footer.
 */
export function Modal({
  title,
  children,
  footer,
  size = 'md',
  isOpen,
  onOpenChange,
  onClose,
  isDismissable = true,
  isKeyboardDismissDisabled,
  role = 'dialog',
  hideCloseButton,
  isPending = false,
  className,
  'aria-describedby': describedBy,
}: ModalProps) {
  const { t } = useTranslation();
  return (
    <ModalOverlay
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (open || !isPending) onOpenChange?.(open);
        if (!open && !isPending) onClose?.();
      }}
      isDismissable={isDismissable && !isPending}
      isKeyboardDismissDisabled={isKeyboardDismissDisabled || isPending}
      className={styles.overlay}
    >
      <RACModal className={cx(styles.modal, styles.size[size], className)}>
        <RACDialog role={role} aria-describedby={describedBy} className={styles.dialog}>
          {({ close }) => (
            <>
              <div className={styles.header}>
                <Heading slot="title" className={styles.title}>
                  {title}
                </Heading>
                {hideCloseButton || isPending ? null : (
                  <IconButton label={t('common.close')} icon={<CloseIcon />} size="sm" onPress={close} />
                )}
              </div>
              <div className={styles.body}>{typeof children === 'function' ? children(close) : children}</div>
              {footer ? (
                <div className={styles.footer}>{typeof footer === 'function' ? footer(close) : footer}</div>
              ) : null}
            </>
          )}
        </RACDialog>
      </RACModal>
    </ModalOverlay>
  );
}
