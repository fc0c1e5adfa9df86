import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';
import * as fieldStyles from './field.css';
import { CheckIcon, ChevronDownIcon } from './icons';
import type { SelectOption } from './list-box';
import * as controls from './native-controls.css';
import * as native from './native-parts.css';
import * as styles from './popover.css';

type OptionKey = SelectOption['id'];

export interface ComboBoxProps<T extends SelectOption> {
  /** The field's label (translated); it names the combo box. */
  label: string;
  /** Keep the label for screen readers only (compact toolbars such as the navbar's tenant switcher). */
  labelHidden?: boolean;
  /** All options; typing filters them ("contains", ignoring case and accents). */
  items: readonly T[];
  selectedKey: OptionKey | null;
  onSelectionChange: (key: OptionKey) => void;
  placeholder?: string;
  className?: string;
  /**
   * Server-filtered options (the audit filters' names): each keystroke is handed over here and `items`
   * are shown as given, not filtered again.
   */
  onInputChange?: (text: string) => void;
  /** The chosen option's label when `items` (a search's answer) may not hold it. */
  selectedLabel?: string;
  /** Said instead of "no results" while the options are being searched. */
  pendingText?: string;
}

/** Lower case without accents, for a "contains" match that ignores both ("sao" finds "São"). */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLocaleLowerCase();

/**
 * Type to filter, then pick one (tenant switcher, tenant chooser, filters), on a native input
 * without React Aria (the ARIA combobox pattern with a listbox popup): typing opens the list filtered by what was typed; ArrowDown and
 * ArrowUp open it (all options) and move the active option (`aria-activedescendant`: focus stays in
 * the input); Enter or a click picks; Escape, or leaving the field, closes it and puts the chosen
 * option's label back. The chevron button shows every option; it is not a tab stop.
 */
export function ComboBox<T extends SelectOption>({
  label,
  labelHidden,
  items,
  selectedKey,
  onSelectionChange,
  placeholder,
  className,
  onInputChange,
  selectedLabel: chosenLabel,
  pendingText,
}: ComboBoxProps<T>) {
  const { t } = useTranslation();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const selectedLabel = items.find((item) => item.id === selectedKey)?.label ?? chosenLabel ?? '';
  // What was typed since the last choice; null shows the chosen option's label.
  const [typed, setTyped] = useState<string | null>(null);
  // Open: whether the list filters by `typed` or shows everything (opened by arrow or button).
  const [open, setOpen] = useState<'filtered' | 'all' | null>(null);
  const [active, setActive] = useState(-1);
  // The active option shows a ring when the arrows moved to it, not under the pointer.
  const [byKey, setByKey] = useState(false);

  const shown =
    open === 'filtered' && typed !== null && !onInputChange
      ? items.filter((item) => fold(item.label).includes(fold(typed)))
      : items;
  const listId = `${id}-list`;
  // Expanded only while a listbox shows; "no results" is a status message beside the field instead.
  const expanded = open !== null && shown.length > 0;
  const optionId = (index: number) => `${id}-option-${index}`;

  const close = () => {
    setOpen(null);
    setActive(-1);
    setTyped(null);
  };
  const choose = (item: T | undefined) => {
    if (!item || item.isDisabled) return;
    close();
    if (item.id !== selectedKey) onSelectionChange(item.id);
  };
  const reach = (index: number) => {
    setActive(index);
    setByKey(true);
    listRef.current?.children[index]?.scrollIntoView?.({ block: 'nearest' });
  };
  const openAll = (at: 'selected' | 'last') => {
    setOpen('all');
    const selected = items.findIndex((item) => item.id === selectedKey);
    setActive(at === 'last' ? items.length - 1 : Math.max(selected, 0));
    setByKey(true);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = shown.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const down = event.key === 'ArrowDown';
      if (open === null) openAll(down ? 'selected' : 'last');
      else if (count > 0) reach(active < 0 ? (down ? 0 : count - 1) : (active + (down ? 1 : -1) + count) % count);
    } else if (event.key === 'Enter') {
      // An open list owns Enter even with no option reached, as React Aria's did: a form around the
      // field (the audit filters) is not submitted with what the field does not show.
      if (open === null) return;
      if (active >= 0) choose(shown[active]);
    } else if (event.key === 'Escape') {
      if (open === null && typed === null) return;
      // Inside a dialog, this Escape only closes the list.
      event.stopPropagation();
      close();
    } else return;
    event.preventDefault();
  };

  const selectedIndex = shown.findIndex((item) => item.id === selectedKey);
  return (
    <div className={cx(fieldStyles.field, native.comboField, className)}>
      <label htmlFor={`${id}-input`} id={`${id}-label`} className={labelHidden ? native.srOnly : fieldStyles.label}>
        {label}
      </label>
      <div className={fieldStyles.groupBox}>
        <input
          ref={inputRef}
          id={`${id}-input`}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={expanded ? listId : undefined}
          aria-activedescendant={expanded && active >= 0 && active < shown.length ? optionId(active) : undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder={placeholder}
          value={typed ?? selectedLabel}
          className={fieldStyles.innerInput}
          onChange={(event) => {
            setTyped(event.target.value);
            setOpen('filtered');
            setActive(-1);
            onInputChange?.(event.target.value);
          }}
          onKeyDown={onKeyDown}
          onBlur={close}
        />
        <button
          type="button"
          tabIndex={-1}
          aria-label={t('ui.select.showOptions')}
          aria-expanded={expanded}
          aria-controls={expanded ? listId : undefined}
          className={cx(fieldStyles.inputButton, controls.inputButtonState)}
          // The input keeps focus (and its caret) while the list opens or closes.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => {
            inputRef.current?.focus();
            if (open === null) openAll('selected');
            else close();
          }}
        >
          <ChevronDownIcon />
        </button>
      </div>
      {open !== null ? (
        <div className={cx(styles.popover, native.comboPopup)}>
          {shown.length === 0 ? (
            <div role="status" className={styles.empty}>
              {pendingText ?? t('ui.select.noResults')}
            </div>
          ) : (
            <div ref={listRef} role="listbox" id={listId} aria-labelledby={`${id}-label`} className={styles.list}>
              {shown.map((item, index) => (
                <div
                  key={String(item.id)}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === selectedIndex}
                  aria-disabled={item.isDisabled || undefined}
                  data-active={index === active ? (byKey ? 'key' : 'pointer') : undefined}
                  className={cx(styles.item, native.comboOption)}
                  onMouseDown={(event) => event.preventDefault()}
                  onPointerEnter={() => {
                    setActive(index);
                    setByKey(false);
                  }}
                  onClick={() => choose(item)}
                >
                  <span className={styles.check}>{index === selectedIndex ? <CheckIcon /> : null}</span>
                  <span className={styles.itemLabel}>{item.label}</span>
                </div>
              ))}
            </div>
          )}
        </div>
      ) : null}
    </div>
  );
}
