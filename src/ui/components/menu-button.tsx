import {
  Suspense,
  useEffect,
  useEffectEvent,
  useId,
  useRef,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import type { Key } from 'react-aria-components/Menu';
import type { ButtonSize, ButtonVariant } from './button';
import type { MenuOption, MenuProps } from './menu';
import { lazyPart } from './lazy-with-timeout';
import { NativeIconButton } from './native-button';

/** React Aria's menu and popover (menu.tsx), fetched once: when a button is pointed at or focused, at the latest on open. */
const LazyMenu = lazyPart(() =>
  import('./menu').then((m) => ({ default: m.Menu as ComponentType<MenuProps<MenuOption>> })),
);
const loadMenu = () => LazyMenu.preload();

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
 * An icon button that opens a {@link Menu}: the `MenuTrigger` + `IconButton` pair's behaviour
 * (Enter, Space or a click open it on the first item, ArrowDown/ArrowUp on the first/last; Escape
 * or a choice closes it and focus returns to the button) for buttons repeated on every row of a
 * long list. It is a {@link NativeIconButton} (a plain `<button>` with the IconButton's look and
 * pending behaviour), and React Aria's Popover and Menu
 * are mounted only while the menu is open: a row mounts in a fraction of the time the RAC pair
 * takes, which is what scrolling a virtualized list does on every frame. Their code is its own
 * chunk, fetched when a menu button is first pointed at or focused (a list's first load does not
 * wait for it); a menu opened before it arrives shows as soon as it does.
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
  // open) and focus is back on the button: a dialog the action opens (native-overlay.tsx) then
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
      <NativeIconButton
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
        onPointerEnter={() => void loadMenu()}
        onFocus={() => void loadMenu()}
        onKeyDown={(event) => {
          // Keys open it on keydown, as RAC's trigger: the click a key would fire next reads as a
          // "virtual" (screen reader) press to React Aria, whose menu would then keep focus itself.
          const focus =
            event.key === 'ArrowUp' ? 'last' : ['ArrowDown', 'Enter', ' '].includes(event.key) ? 'first' : null;
          if (isPending || !focus) return;
          event.preventDefault();
          setOpen(focus);
        }}
      />
      {open !== null ? (
        <Suspense fallback={null}>
          <LazyMenu
            id={menuId}
            aria-labelledby={buttonId}
            autoFocus={open}
            items={items()}
            placement={placement}
            // The popover is a dialog around the menu (as under a MenuTrigger): both are named by the button.
            popover={{
              triggerRef: ref,
              isOpen: true,
              onOpenChange: (isOpen) => (isOpen ? undefined : setOpen(null)),
              'aria-labelledby': buttonId,
            }}
            onAction={(key) => {
              chosen.current = key;
              setOpen(null);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
