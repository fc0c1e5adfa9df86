import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'wouter';
import { cx } from './class-names';
import { Button, type ButtonProps } from './button';
import { Popover, type PopoverPlacement } from './dialog';
import * as native from './native-parts.css';
import * as styles from './popover.css';

/** One entry of a menu. */
export interface MenuOption {
  id: string | number;
  /** Visible text; also the item's accessible name and its type-ahead text. */
  label: string;
  /** Decorative icon before the label. */
  icon?: ReactNode;
  /** Navigates instead of calling `onAction` (a wouter link: client-side, a real address for a new tab). */
  href?: string;
  /** Destructive item ("Sair", "Excluir"): danger colour plus the label says what it does. */
  isDanger?: boolean;
  isDisabled?: boolean;
}

type MenuKey = MenuOption['id'];

export interface MenuTriggerButtonProps<T extends MenuOption> extends Omit<ButtonProps, 'onPress' | 'ref'> {
  /** The entries (an item with `href` is a link: client-side navigation, real address for a new tab). */
  items: T[];
  /** The menu's accessible name (translated). */
  menuLabel: string;
  /** Called with the chosen item's id after the menu closed (links navigate instead). */
  onAction?: (id: MenuKey) => void;
  placement?: PopoverPlacement;
}

/**
 * A {@link Button} with text that opens a {@link Menu}, without React Aria (the user menu, the
 * starred pages, the horizontal menu's sections; for an icon button repeated on every row see
 * `MenuButton`, menu-button.tsx). Enter, Space, a click or ArrowDown open it on the
 * first item, ArrowUp on the last; arrows, Home/End and type-ahead move; Enter or Space choose;
 * Escape, Tab or a click outside close it, and focus returns to the button. The button says
 * `aria-haspopup`, `aria-expanded` and, while open, `aria-controls`.
 */
export function MenuTriggerButton<T extends MenuOption>({
  items,
  menuLabel,
  onAction,
  placement = 'bottom end',
  id,
  ...buttonProps
}: MenuTriggerButtonProps<T>) {
  const ref = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState<'first' | 'last' | null>(null);
  const ownId = useId();
  const buttonId = id ?? `${ownId}-button`;
  const menuId = `${ownId}-menu`;
  return (
    <>
      <Button
        {...buttonProps}
        ref={ref}
        id={buttonId}
        aria-haspopup="true"
        aria-expanded={open !== null}
        aria-controls={open !== null ? menuId : undefined}
        onPress={() => setOpen('first')}
        onKeyDown={(event) => {
          if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
          event.preventDefault();
          setOpen(event.key === 'ArrowUp' ? 'last' : 'first');
        }}
      />
      {open !== null ? (
        <Menu
          id={menuId}
          label={menuLabel}
          labelledBy={buttonId}
          items={items}
          focus={open}
          triggerRef={ref}
          placement={placement}
          onClose={() => setOpen(null)}
          onAction={onAction}
        />
      ) : null}
    </>
  );
}

export interface MenuProps<T extends MenuOption> {
  id: string;
  label: string;
  labelledBy: string;
  items: T[];
  focus: 'first' | 'last';
  triggerRef: RefObject<Element | null>;
  placement: PopoverPlacement;
  /** The gap under the button in px (the popover's 4 unless told). */
  offset?: number;
  onClose: () => void;
  onAction: ((id: MenuKey) => void) | undefined;
}

const enabledItems = (root: Element | null) => [
  ...(root?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])') ?? []),
];

/** The open menu: role menu in a popover named by its button; items take focus one at a time (roving). Mount it while open. */
export function Menu<T extends MenuOption>({
  id,
  label,
  labelledBy,
  items,
  focus,
  triggerRef,
  placement,
  offset,
  onClose,
  onAction,
}: MenuProps<T>) {
  const typed = useRef({ text: '', at: 0 });
  const list = useRef<HTMLDivElement>(null);
  // An open menu keeps the focus: when the item that held it leaves (the items follow the screen's width,
  // and the pointer focuses the item it enters), the first one takes it instead of the page's body.
  useLayoutEffect(() => {
    const active = document.activeElement;
    if (list.current && (active === null || active === document.body)) enabledItems(list.current)[0]?.focus();
  }, [items]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // Keys in an open menu are the menu's, not those of what holds its button (a grid row).
    event.stopPropagation();
    const all = enabledItems(event.currentTarget);
    const index = all.indexOf(document.activeElement as HTMLElement);
    const go = (next: number) => all[(next + all.length) % all.length]?.focus();
    if (event.key === 'ArrowDown') go(index + 1);
    else if (event.key === 'ArrowUp') go(index < 0 ? -1 : index - 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(-1);
    else if (event.key === 'Tab') onClose();
    else if (event.key === ' ') (all[index] ?? null)?.click();
    else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // Type-ahead: the next item whose label starts with what was typed in the last half second.
      const now = Date.now();
      typed.current = {
        text: (now - typed.current.at < 500 ? typed.current.text : '') + event.key.toLocaleLowerCase(),
        at: now,
      };
      const { text } = typed.current;
      const order = [
        ...all.slice(index + (text.length === 1 ? 1 : 0)),
        ...all.slice(0, index + (text.length === 1 ? 1 : 0)),
      ];
      order.find((item) => (item.textContent ?? '').trim().toLocaleLowerCase().startsWith(text))?.focus();
    } else return;
    event.preventDefault();
  };

  // In a portal under <body>, as React Aria's menus were: a grid that holds the button
  // (grid-navigation.ts) leaves alone the keys of what is not inside it.
  return createPortal(
    <Popover
      triggerRef={triggerRef}
      placement={placement}
      offset={offset}
      className={styles.popover}
      aria-labelledby={labelledBy}
      onClose={onClose}
      initialFocus={(dialog) => {
        const all = enabledItems(dialog);
        return (focus === 'last' ? all.at(-1) : all[0]) ?? null;
      }}
      onKeyDown={onKeyDown}
    >
      <div ref={list} role="menu" id={id} aria-label={label} className={styles.list}>
        {items.map((item) => {
          const common = {
            role: 'menuitem',
            tabIndex: -1,
            'aria-disabled': item.isDisabled || undefined,
            'data-danger': item.isDanger || undefined,
            className: cx(styles.item, native.menuItem),
            onPointerEnter: (event: { currentTarget: HTMLElement }) =>
              item.isDisabled ? undefined : event.currentTarget.focus(),
          } as const;
          const content = (
            <>
              {item.icon}
              <span className={styles.itemLabel}>{item.label}</span>
            </>
          );
          return item.href && !item.isDisabled ? (
            <Link key={String(item.id)} href={item.href} {...common} onClick={onClose}>
              {content}
            </Link>
          ) : (
            <button
              key={String(item.id)}
              type="button"
              {...common}
              onClick={() => {
                if (item.isDisabled) return;
                onClose();
                onAction?.(item.id);
              }}
            >
              {content}
            </button>
          );
        })}
      </div>
    </Popover>,
    document.body,
  );
}
