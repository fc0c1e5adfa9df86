import { useEffect, useEffectEvent, useId, useRef, useState, type ReactNode } from 'react';
import { IconButton, type ButtonSize, type ButtonVariant } from './button';
import { Menu, type MenuOption, type MenuProps } from './menu';

type Key = MenuOption['id'];

export interface MenuButtonProps<T extends MenuOption> {
  /** Accessible name of the icon button (translated), e.g. "Ações de Ana". */
  label: string;
  icon: ReactNode;
  /** The entries, computed when the menu opens. */
  items: () => T[];
  onAction: (id: Key) => void;
  /** Focusable but inert, with a spinner named `pendingLabel` added to its name. */
  isPending?: boolean;
  /** The spinner's name, needed while pending (translated, e.g. "Carregando…"). */
  pendingLabel?: string;
  isDisabled?: boolean;
  /** The id of what describes the button, e.g. why it is disabled. */
  describedBy?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  placement?: MenuProps<T>['placement'];
  className?: string;
}

/**
 * An icon button that opens a {@link Menu} (menu.tsx): Enter, Space or a click open it on the first
 * item, ArrowDown/ArrowUp on the first/last; Escape or a choice closes it and focus returns to the
 * button. For buttons repeated on every row of a long list: the items are computed when it opens,
 * and the menu is mounted only while open, so a row mounts one plain `<button>`, which is what
 * scrolling a virtualized list does on every frame.
 */
export function MenuButton<T extends MenuOption>({
  label,
  icon,
  items,
  onAction,
  isPending,
  pendingLabel,
  isDisabled,
  describedBy,
  variant = 'ghost',
  size = 'md',
  placement,
  className,
}: MenuButtonProps<T>) {
  const ref = useRef<HTMLButtonElement>(null);
  // Open, and which item takes focus; null when closed.
  const [open, setOpen] = useState<'first' | 'last' | null>(null);
  const id = useId();
  const buttonId = `${id}-button`;
  const menuId = `${id}-menu`;
  // The choice runs once the menu is gone (its popover keeps the rest of the page inert while
  // open) and focus is back on the button: a dialog the action opens (dialog.tsx) then
  // returns focus to the button when it closes, not to the page.
  const chosen = useRef<Key | null>(null);
  const runAction = useEffectEvent((key: Key) => onAction(key));
  useEffect(() => {
    const key = chosen.current;
    if (open !== null || key === null) return;
    chosen.current = null;
    ref.current?.focus();
    runAction(key);
  }, [open]);
  return (
    <>
      <IconButton
        ref={ref}
        id={buttonId}
        label={label}
        icon={icon}
        variant={variant}
        size={size}
        isPending={isPending}
        pendingLabel={pendingLabel}
        isDisabled={isDisabled}
        className={className}
        aria-describedby={describedBy}
        aria-haspopup="true"
        aria-expanded={open !== null}
        aria-controls={open !== null ? menuId : undefined}
        onPress={() => setOpen('first')}
        onKeyDown={(event) => {
          // Keys open it on keydown (ArrowUp on the last item); the click Enter or Space would fire
          // next is prevented, so it does not open the menu a second time.
          const focus =
            event.key === 'ArrowUp' ? 'last' : ['ArrowDown', 'Enter', ' '].includes(event.key) ? 'first' : null;
          if (isPending || !focus) return;
          event.preventDefault();
          setOpen(focus);
        }}
      />
      {open !== null ? (
        <Menu
          id={menuId}
          label={label}
          labelledBy={buttonId}
          items={items()}
          focus={open}
          triggerRef={ref}
          placement={placement ?? 'bottom end'}
          // 8 px under the button, where the rows' menus have always opened (React Aria's default).
          offset={8}
          onClose={() => setOpen(null)}
          onAction={(key) => {
            chosen.current = key;
          }}
        />
      ) : null}
    </>
  );
}
