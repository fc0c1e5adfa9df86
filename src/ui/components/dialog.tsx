import {
  useEffectEvent,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { IconButton } from './button';
import { cx } from './class-names';
import * as styles from './dialog.css';
import { DialogLayerContext, LAYER_ATTRIBUTE, openDialogLayer } from './dialog-layer';
import { CloseIcon } from './icons';

/*
 * Every overlay of the app on the platform's `<dialog>`: `Modal` (forms and details), the drawer,
 * `ConfirmDialog` and the anchored `Popover` (menus, the activity feed) all open through
 * `useModalDialog`. A modal `<dialog>` sits in the top layer and makes the rest of the page inert,
 * so an overlay that React Aria renders in a portal (the lists of `Select` and `MultiSelect`, the
 * calendar of `DateRangePicker`, the toast region) would open under `<body>`, behind the backdrop
 * and out of reach. A `Modal` therefore holds a layer of its own (dialog-layer.ts), and
 * dialog-portal.tsx sends React Aria's portals there.
 */

const FOCUSABLE =
  'a[href], area[href], button, input, select, textarea, iframe, summary, [tabindex], [contenteditable]:not([contenteditable="false"])';

/**
 * The places Tab stops at inside `dialog`, in order, outside its layer; a group of radio buttons
 * is one stop (the browser moves between them with the arrows).
 */
function tabStops(dialog: HTMLElement): HTMLElement[][] {
  const stops: HTMLElement[][] = [];
  for (const element of dialog.querySelectorAll<HTMLElement>(FOCUSABLE)) {
    if (
      element.tabIndex < 0 ||
      element.matches(':disabled') ||
      element.closest(`[${LAYER_ATTRIBUTE}], [hidden], [inert]`)
    )
      continue;
    if (element instanceof HTMLInputElement && element.type === 'hidden') continue;
    // checkVisibility: display:none and visibility:hidden ancestors (absent in jsdom, which has no layout).
    if (typeof element.checkVisibility === 'function' && !element.checkVisibility({ visibilityProperty: true }))
      continue;
    const last = stops.at(-1)?.[0];
    const radio = (e: Element | undefined): e is HTMLInputElement =>
      e instanceof HTMLInputElement && e.type === 'radio' && e.name !== '';
    if (radio(element) && radio(last) && last.name === element.name && last.form === element.form)
      stops.at(-1)?.push(element);
    else stops.push([element]);
  }
  return stops;
}

/** The element of a stop that takes focus: the checked radio of a group, else its first element. */
const focusable = (stop: HTMLElement[]): HTMLElement | undefined =>
  stop.find((e) => e instanceof HTMLInputElement && e.checked) ?? stop[0];

/**
 * Tab and Shift+Tab go round inside the dialog, as React Aria's modals did: the browser alone
 * would leave the last control for its own address bar. What a Modal's layer holds (a React Aria
 * popover) contains focus by itself.
 */
function containTab(event: KeyboardEvent<HTMLElement>, dialog: HTMLElement): void {
  if (event.key !== 'Tab' || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const active = document.activeElement;
  // Not this dialog's: focus in a dialog nested inside it (a ConfirmDialog in a Modal) or in its layer.
  if (!(active instanceof HTMLElement) || active.closest('dialog') !== dialog || active.closest(`[${LAYER_ATTRIBUTE}]`))
    return;
  const stops = tabStops(dialog);
  const first = stops[0];
  const last = stops.at(-1);
  if (!first || !last) return;
  const target = event.shiftKey
    ? active === dialog || first.includes(active)
      ? focusable(last)
      : undefined
    : last.includes(active)
      ? focusable(first)
      : undefined;
  if (!target) return;
  event.preventDefault();
  target.focus();
}

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
 * layer, keeps focus inside and makes the rest of the page inert; Tab goes round inside it. On
 * unmount focus returns to the element that had it when the dialog opened; Escape and
 * (optionally) a click on the backdrop ask the caller to close. Without showModal (jsdom) it is a
 * plain open `<dialog>` with the same keys.
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
  // What had focus when the dialog first rendered: the opener, should a field inside take focus
  // while mounting (a native input's `autoFocus`) before the dialog's effect runs.
  const [focusedAtRender] = useState(() => (typeof document === 'undefined' ? null : document.activeElement));
  const focusTarget = useEffectEvent((dialog: HTMLDialogElement) => initialFocus?.(dialog) ?? dialog);
  const dismissed = useEffectEvent(() => onClose());
  const mayDismiss = useEffectEvent(() => !isKeyboardDismissDisabled);

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const focusedInside = active && dialog.contains(active) ? active : null;
    // Read here rather than at render when nothing inside took focus: a menu that opened this
    // dialog has just given focus back to its button, which is the opener that stays.
    const opener = focusedInside ? (focusedAtRender instanceof HTMLElement ? focusedAtRender : null) : active;
    // As React Aria's scroll lock: the page's scroll bar goes (dialog.css.ts) but its room stays,
    // so the page behind does not shift sideways.
    const root = document.documentElement;
    const gutter = root.style.getPropertyValue('scrollbar-gutter');
    if (scrollLock && window.innerWidth > root.clientWidth) root.style.setProperty('scrollbar-gutter', 'stable');
    let closing = false;
    const show = () => {
      if (typeof dialog.showModal === 'function') {
        if (!dialog.open) dialog.showModal();
      } else dialog.setAttribute('open', '');
    };
    // The platform closed it by itself (a close request that skipped `cancel`, as Chromium does for a
    // second Escape or Android back with no user activation between): tell the caller, or, when it may
    // not be dismissed (a pending Modal), show it again, since it stays mounted and must stay modal.
    const onNativeClose = () => {
      if (closing) return;
      if (mayDismiss()) dismissed();
      else show();
    };
    dialog.addEventListener('close', onNativeClose);
    show();
    (focusedInside ?? focusTarget(dialog)).focus({ preventScroll: true });
    return () => {
      closing = true;
      dialog.removeEventListener('close', onNativeClose);
      if (dialog.open && typeof dialog.close === 'function') dialog.close();
      if (scrollLock) root.style.setProperty('scrollbar-gutter', gutter);
      if (opener?.isConnected) opener.focus();
    };
  }, [focusedAtRender, scrollLock]);

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
      // Capture: a control inside that stops the key's propagation cannot take Tab out of the dialog.
      onKeyDownCapture: (event: KeyboardEvent<HTMLDialogElement>) => containTab(event, event.currentTarget),
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

export interface ModalProps {
  /** Heading of the dialog; it names the dialog for screen readers. */
  title: ReactNode;
  /** Content; a function receives `close` (e.g. for a Cancel button). */
  children: ReactNode | ((close: () => void) => ReactNode);
  /** Buttons at the bottom, right-aligned; a function receives `close`. */
  footer?: ReactNode | ((close: () => void) => ReactNode);
  size?: keyof typeof styles.size;
  /** Open while true; the dialog is not in the page while closed. */
  isOpen: boolean;
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
 * A modal dialog on the platform's `<dialog>`, in a portal under `<body>`: header with the title
 * that names it and a named close button, a scrolling body, a footer. Focus moves inside and goes
 * round there, the page behind is inert and does not scroll, Escape and a click outside close it,
 * focus returns to the opener. React Aria popovers inside it open in its layer (dialog-portal.tsx).
 */
export function Modal({ isOpen, ...props }: ModalProps) {
  return isOpen ? <OpenModal {...props} /> : null;
}

function OpenModal({
  title,
  children,
  footer,
  size = 'md',
  onOpenChange,
  onClose,
  isDismissable = true,
  isKeyboardDismissDisabled = false,
  role = 'dialog',
  hideCloseButton,
  isPending = false,
  className,
  'aria-describedby': describedBy,
}: Omit<ModalProps, 'isOpen'>) {
  const { t } = useTranslation();
  const close = () => {
    if (isPending) return;
    onOpenChange?.(false);
    onClose?.();
  };
  const { dialogProps } = useModalDialog({
    onClose: close,
    isDismissable: isDismissable && !isPending,
    isKeyboardDismissDisabled: isKeyboardDismissDisabled || isPending,
  });
  const titleId = useId();
  const layer = useRef<HTMLDivElement>(null);
  const [getLayer] = useState(() => () => layer.current);
  useLayoutEffect(() => (layer.current ? openDialogLayer(layer.current) : undefined), []);
  return createPortal(
    <dialog
      {...dialogProps}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      tabIndex={-1}
      className={cx(styles.modal, styles.size[size], className)}
    >
      <DialogLayerContext value={getLayer}>
        <div className={styles.header}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          {hideCloseButton || isPending ? null : (
            <IconButton label={t('common.close')} icon={<CloseIcon />} size="sm" onPress={close} />
          )}
        </div>
        <div className={styles.body}>{typeof children === 'function' ? children(close) : children}</div>
        {footer ? <div className={styles.footer}>{typeof footer === 'function' ? footer(close) : footer}</div> : null}
      </DialogLayerContext>
      <div ref={layer} {...{ [LAYER_ATTRIBUTE]: '' }} className={styles.layer} />
    </dialog>,
    document.body,
  );
}

export type PopoverPlacement = 'bottom start' | 'bottom end';

/**
 * Puts a popover `offset` px under its trigger, or over it when it fits better there: fixed coordinates,
 * the trigger's width and the room on the chosen side as CSS variables, the side as `data-placement`.
 */
export function placePopover(popover: HTMLElement, trigger: Element, placement: PopoverPlacement, offset = 4): void {
  const box = trigger.getBoundingClientRect();
  const rtl = getComputedStyle(trigger).direction === 'rtl';
  const alignLeft = (placement === 'bottom start') !== rtl;
  // Across first: the width decides how its lines wrap, so how tall it is.
  popover.style.left = alignLeft ? `${Math.max(box.left, 0)}px` : 'auto';
  popover.style.right = alignLeft ? 'auto' : `${Math.max(document.documentElement.clientWidth - box.right, 0)}px`;
  popover.style.setProperty('--trigger-width', `${box.width}px`);
  // Room under and over the trigger, 8 px from the viewport's edge. Under it unless it would not fit
  // there at the height its styles give it (max-height) and there is more room over it: a row's menu
  // on the last card of a phone's page opens upwards instead of past the bottom of the screen.
  const below = window.innerHeight - box.bottom - offset - 8;
  const above = box.top - offset - 8;
  popover.style.setProperty('--popover-available-height', '100000px');
  const natural = popover.offsetHeight;
  const up = natural > below && above > below;
  const room = Math.max(up ? above : below, 120);
  popover.style.setProperty('--popover-available-height', `${room}px`);
  // Over the trigger, its bottom edge `offset` px above it.
  popover.style.top = up ? `${Math.max(box.top - offset - popover.offsetHeight, 8)}px` : `${box.bottom + offset}px`;
  popover.dataset.placement = up ? 'top' : 'bottom';
}

/**
 * Keeps a popover under its trigger while it is open: placed at once, then again in every frame in
 * which the trigger's box or the viewport has changed. A frame rather than `resize` and `scroll`
 * alone: a trigger also moves when the page lays itself out again without either event, as when a
 * media query makes React render a row anew after the resize (the users list at 390 px drops its
 * "Editar" button and moves its actions column), and animation-frame callbacks run after the
 * frame's resize, scroll and media-query handlers, so the popover is placed before that frame
 * paints. The trigger is read from its ref each frame: a trigger React renders anew as another
 * element (a layout of its own at a breakpoint) is followed, not taken for gone. A trigger that
 * left the page or is no longer rendered (`display: none` at a breakpoint) closes the popover:
 * there is nothing left to hang it from. Returns the stop.
 */
function followTrigger(
  popover: HTMLElement,
  triggerRef: RefObject<Element | null>,
  placement: PopoverPlacement,
  offset: number | undefined,
  onTriggerGone: () => void,
): () => void {
  let placed = '';
  let frame = 0;
  const follow = () => {
    const trigger = triggerRef.current;
    // checkVisibility is absent in jsdom, which has no layout: there the trigger counts as shown.
    if (!trigger?.isConnected || trigger.checkVisibility?.() === false) {
      onTriggerGone();
      return;
    }
    const box = trigger.getBoundingClientRect();
    const now = [
      box.top,
      box.left,
      box.right,
      box.bottom,
      window.innerHeight,
      document.documentElement.clientWidth,
    ].join();
    if (now !== placed) {
      placed = now;
      placePopover(popover, trigger, placement, offset);
    }
    frame = requestAnimationFrame(follow);
  };
  follow();
  return () => cancelAnimationFrame(frame);
}

export interface PopoverProps extends Omit<ModalDialogOptions, 'scrollLock'> {
  /** The element it hangs from; the popover follows it while open and closes when it is gone. */
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
 * Escape closes it, focus returns to the trigger. It follows the trigger while open and closes when
 * the trigger is gone ({@link followTrigger}). Mount it while open.
 */
export function Popover({
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
}: PopoverProps) {
  const { ref, dialogProps } = useModalDialog({
    onClose,
    isDismissable,
    isKeyboardDismissDisabled,
    initialFocus,
    scrollLock: false,
  });
  const triggerGone = useEffectEvent(() => onClose());
  useLayoutEffect(() => {
    const popover = ref.current;
    if (!popover || !triggerRef.current) return;
    return followTrigger(popover, triggerRef, placement, offset, triggerGone);
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
