import {
  useEffectEvent,
  useId,
  useLayoutEffect,
  useRef,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';
import * as dialogStyles from './dialog.css';
import { CloseIcon } from './icons';
import { IconButton } from './button';
import * as styles from './native-overlay.css';

export interface ModalDialogOptions {
  /** Called when the user dismisses the dialog (Escape, a click on the backdrop); the caller unmounts it. */
  onClose: () => void;
  /** A click outside closes it (default true). */
  isDismissable?: boolean;
  isKeyboardDismissDisabled?: boolean;
  /** The element focused on open; the dialog itself (it needs `tabIndex={-1}`) when absent or null. */
  initialFocus?: (dialog: HTMLDialogElement) => HTMLElement | null;
  /** Lock the page's scroll while open (modal dialogs, the drawer); popovers leave it. */
  scrollLock?: boolean;
}

/**
 * A `<dialog>` that is open while mounted, as a modal (showModal): the platform puts it in the top
 * layer, keeps focus inside and makes the rest of the page inert. On unmount focus returns to the
 * element that had it when the dialog opened; Escape and (optionally) a click on the backdrop ask
 * the caller to close. Without showModal (jsdom) it is a plain open `<dialog>` with the same keys.
 */
export function useModalDialog({
  onClose,
  isDismissable = true,
  isKeyboardDismissDisabled = false,
  initialFocus,
  scrollLock = true,
}: ModalDialogOptions) {
  const ref = useRef<HTMLDialogElement>(null);
  const pointerOnBackdrop = useRef(false);
  const focusTarget = useEffectEvent((dialog: HTMLDialogElement) => initialFocus?.(dialog) ?? dialog);
  const dismissed = useEffectEvent(() => onClose());

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    let closing = false;
    // The platform closed it by itself (a close request that skipped `cancel`): tell the caller.
    const onNativeClose = () => {
      if (!closing) dismissed();
    };
    dialog.addEventListener('close', onNativeClose);
    if (typeof dialog.showModal === 'function') {
      if (!dialog.open) dialog.showModal();
    } else dialog.setAttribute('open', '');
    focusTarget(dialog).focus({ preventScroll: true });
    return () => {
      closing = true;
      dialog.removeEventListener('close', onNativeClose);
      if (dialog.open && typeof dialog.close === 'function') dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const outside = (event: MouseEvent<HTMLDialogElement> | PointerEvent<HTMLDialogElement>) => {
    if (event.target !== event.currentTarget) return false;
    const box = event.currentTarget.getBoundingClientRect();
    return (
      event.clientX < box.left || event.clientX > box.right || event.clientY < box.top || event.clientY > box.bottom
    );
  };

  return {
    ref,
    dialogProps: {
      ref,
      'data-scroll-lock': scrollLock || undefined,
      onKeyDown: (event: KeyboardEvent<HTMLDialogElement>) => {
        if (event.key !== 'Escape' || event.defaultPrevented) return;
        // Handled here rather than by the `cancel` event: the same in every browser and in jsdom.
        event.preventDefault();
        event.stopPropagation();
        if (!isKeyboardDismissDisabled) onClose();
      },
      onCancel: (event: { preventDefault(): void }) => {
        event.preventDefault();
        if (!isKeyboardDismissDisabled) onClose();
      },
      onPointerDown: (event: PointerEvent<HTMLDialogElement>) => {
        pointerOnBackdrop.current = outside(event);
      },
      onClick: (event: MouseEvent<HTMLDialogElement>) => {
        const onBackdrop = pointerOnBackdrop.current && outside(event);
        pointerOnBackdrop.current = false;
        if (onBackdrop && isDismissable) onClose();
      },
    },
  };
}

export interface NativeModalProps {
  /** Heading of the dialog; it names the dialog for screen readers. */
  title: ReactNode;
  /** Content; a function receives `close` (e.g. for a Cancel button). */
  children: ReactNode | ((close: () => void) => ReactNode);
  /** Buttons at the bottom, right-aligned; a function receives `close`. */
  footer?: ReactNode | ((close: () => void) => ReactNode);
  size?: keyof typeof dialogStyles.size;
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  /** Close on a click outside; Escape always closes unless `isKeyboardDismissDisabled`. */
  isDismissable?: boolean;
  isKeyboardDismissDisabled?: boolean;
  role?: 'dialog' | 'alertdialog';
  hideCloseButton?: boolean;
  className?: string;
  'aria-describedby'?: string;
}

/**
 * `Modal`'s look and behaviour (dialog.tsx) on the platform's `<dialog>`: header with the title
 * that names it and a named close button, a scrolling body, a footer; focus trapped by the
 * browser, Escape and a click outside close it, focus returns to the opener.
 */
export function NativeModal({ isOpen, ...props }: NativeModalProps) {
  return isOpen ? <OpenModal {...props} /> : null;
}

function OpenModal({
  title,
  children,
  footer,
  size = 'md',
  onOpenChange,
  isDismissable = true,
  isKeyboardDismissDisabled,
  role = 'dialog',
  hideCloseButton,
  className,
  'aria-describedby': describedBy,
}: Omit<NativeModalProps, 'isOpen'>) {
  const { t } = useTranslation();
  const close = () => onOpenChange(false);
  const { dialogProps } = useModalDialog({ onClose: close, isDismissable, isKeyboardDismissDisabled });
  const titleId = useId();
  return (
    <dialog
      {...dialogProps}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      tabIndex={-1}
      className={cx(styles.modal, dialogStyles.size[size], className)}
    >
      <div className={dialogStyles.header}>
        <h2 id={titleId} className={dialogStyles.title}>
          {title}
        </h2>
        {hideCloseButton ? null : (
          <IconButton label={t('common.close')} icon={<CloseIcon />} size="sm" onPress={close} />
        )}
      </div>
      <div className={dialogStyles.body}>{typeof children === 'function' ? children(close) : children}</div>
      {footer ? (
        <div className={dialogStyles.footer}>{typeof footer === 'function' ? footer(close) : footer}</div>
      ) : null}
    </dialog>
  );
}

export type PopoverPlacement = 'bottom start' | 'bottom end';

/**
 * Puts a popover `offset` px under its trigger: fixed coordinates, the trigger's width and the room
 * below as CSS variables.
 */
export function placePopover(popover: HTMLElement, trigger: Element, placement: PopoverPlacement, offset = 4): void {
  const box = trigger.getBoundingClientRect();
  const top = box.bottom + offset;
  const rtl = getComputedStyle(trigger).direction === 'rtl';
  const alignLeft = (placement === 'bottom start') !== rtl;
  popover.style.top = `${top}px`;
  popover.style.left = alignLeft ? `${Math.max(box.left, 0)}px` : 'auto';
  popover.style.right = alignLeft ? 'auto' : `${Math.max(document.documentElement.clientWidth - box.right, 0)}px`;
  popover.style.setProperty('--trigger-width', `${box.width}px`);
  popover.style.setProperty('--popover-available-height', `${Math.max(window.innerHeight - top - 8, 120)}px`);
}

export interface NativePopoverProps extends Omit<ModalDialogOptions, 'scrollLock'> {
  /** The element it hangs from (its position is read when the popover opens). */
  triggerRef: RefObject<Element | null>;
  placement?: PopoverPlacement;
  /** The gap under the trigger, in px (4 unless told). */
  offset?: number;
  className?: string;
  children: ReactNode;
  id?: string;
  role?: 'dialog';
  'aria-label'?: string;
  'aria-labelledby'?: string;
  onKeyDown?: (event: KeyboardEvent<HTMLDialogElement>) => void;
}

/**
 * A popup anchored under its trigger (menus, the activity feed) on a modal `<dialog>`, as React
 * Aria's Popover is modal: the rest of the page is inert while it is open, a click outside or
 * Escape closes it, focus returns to the trigger. Mount it while open.
 */
export function NativePopover({
  triggerRef,
  placement = 'bottom end',
  offset,
  className,
  children,
  onKeyDown,
  onClose,
  isDismissable,
  isKeyboardDismissDisabled,
  initialFocus,
  ...aria
}: NativePopoverProps) {
  const { ref, dialogProps } = useModalDialog({
    onClose,
    isDismissable,
    isKeyboardDismissDisabled,
    initialFocus,
    scrollLock: false,
  });
  useLayoutEffect(() => {
    const popover = ref.current;
    const trigger = triggerRef.current;
    if (!popover || !trigger) return;
    const place = () => placePopover(popover, trigger, placement, offset);
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [ref, triggerRef, placement, offset]);
  return (
    <dialog
      {...dialogProps}
      {...aria}
      tabIndex={-1}
      className={cx(styles.popover, className)}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        dialogProps.onKeyDown(event);
      }}
    >
      {children}
    </dialog>
  );
}
