import type { ReactNode, RefObject } from 'react';
import {
  Menu as RACMenu,
  MenuItem,
  MenuTrigger as RACMenuTrigger,
  type Key,
  type MenuProps as RACMenuProps,
} from 'react-aria-components/Menu';
import { Popover } from 'react-aria-components/Popover';
import { cx } from './class-names';
import { CheckIcon } from './icons';
import * as styles from './popover.css';

/** One entry of a {@link Menu}. */
export interface MenuOption {
  id: Key;
  /** Visible text; also the item's accessible name and its type-ahead text. */
  label: string;
  /** Decorative icon before the label. */
  icon?: ReactNode;
  /** Navigates instead of calling `onAction` (through the shell's RouterProvider). */
  href?: string;
  /** Destructive item ("Sair", "Excluir"): danger colour plus the label says what it does. */
  isDanger?: boolean;
  isDisabled?: boolean;
}

/**
 * Opens the `Menu` that follows its trigger button (RAC `MenuTrigger`): Enter, Space or ArrowDown
 * on the trigger opens it and focuses the first item; Escape closes and returns focus.
 */
export const MenuTrigger = RACMenuTrigger;

export interface MenuProps<T extends MenuOption> extends Omit<
  RACMenuProps<T>,
  'className' | 'style' | 'children' | 'items'
> {
  items: Iterable<T>;
  /** Where the popover opens relative to the trigger. */
  placement?: 'bottom start' | 'bottom end' | 'top start' | 'top end';
  className?: string;
  /**
   * Outside a {@link MenuTrigger} (see `MenuButton`): the element the popover hangs from and its
   * open state. Inside a trigger these come from it.
   */
  popover?: {
    triggerRef: RefObject<Element | null>;
    isOpen: boolean;
    onOpenChange: (isOpen: boolean) => void;
    'aria-labelledby'?: string;
  };
}

/**
 * A menu of actions or of one choice (RAC `Menu`, role menu): user menu (profile, settings,
 * logout), language menu (`selectionMode="single"` + `selectedKeys`, items get a check mark and
 * `menuitemradio`). Arrow keys move, type-ahead jumps, Enter runs `onAction(id)`.
 */
export function Menu<T extends MenuOption>({
  items,
  placement = 'bottom end',
  className,
  popover,
  ...props
}: MenuProps<T>) {
  return (
    <Popover {...popover} placement={placement} className={styles.popover}>
      <RACMenu {...props} items={items} className={cx(styles.list, className)}>
        {(item) => (
          <MenuItem
            id={item.id}
            textValue={item.label}
            href={item.href}
            isDisabled={item.isDisabled}
            data-danger={item.isDanger || undefined}
            className={styles.item}
          >
            {({ isSelected, selectionMode }) => (
              <>
                {selectionMode === 'none' ? (
                  item.icon
                ) : (
                  <span className={styles.check}>{isSelected ? <CheckIcon /> : null}</span>
                )}
                <span className={styles.itemLabel}>{item.label}</span>
              </>
            )}
          </MenuItem>
        )}
      </RACMenu>
    </Popover>
  );
}
