import { useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';
import * as styles from './field.css';
import { FieldLabelText } from './field-label';
import { CloseIcon, SearchIcon } from './icons';
import * as native from './native-controls.css';
import * as searchStyles from './search-field.css';
import { VisuallyHidden } from './visually-hidden';

export interface SearchFieldProps {
  /** Visible label, translated by the caller; it names the searchbox. */
  label: ReactNode;
  /** Hide the label visually (toolbars); it still names the input for screen readers. */
  labelHidden?: boolean;
  description?: ReactNode;
  placeholder?: string;
  /** Controlled: the text and its change. Leave `value` out for an uncontrolled field (`defaultValue`). */
  value?: string;
  defaultValue?: string;
  onChange?: (value: string) => void;
  /** Enter in the field. */
  onSubmit?: (value: string) => void;
  /** The text was cleared (Escape or the clear button). */
  onClear?: () => void;
  isDisabled?: boolean;
  name?: string;
  autoFocus?: boolean;
  className?: string;
}

/**
 * A search input on a plain `<input type="search">` (role searchbox), without React Aria: Enter
 * calls `onSubmit`; Escape clears a non-empty field (an empty one lets Escape through, e.g. to a
 * dialog); a named clear button shows while there is text, out of the tab order, and keeps focus
 * in the input. Debouncing belongs to the
 * machine that searches.
 */
export function SearchField({
  label,
  labelHidden,
  description,
  placeholder,
  value,
  defaultValue = '',
  onChange,
  onSubmit,
  onClear,
  isDisabled,
  name,
  autoFocus,
  className,
}: SearchFieldProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const descriptionId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [own, setOwn] = useState(defaultValue);
  const text = value ?? own;
  const set = (next: string) => {
    if (value === undefined) setOwn(next);
    onChange?.(next);
  };
  const clear = () => {
    set('');
    onClear?.();
  };
  return (
    <div className={cx(styles.field, className)}>
      {labelHidden ? (
        <VisuallyHidden>
          <FieldLabelText htmlFor={inputId}>{label}</FieldLabelText>
        </VisuallyHidden>
      ) : (
        <FieldLabelText htmlFor={inputId}>{label}</FieldLabelText>
      )}
      <div className={cx(styles.groupBox, native.groupState)} data-disabled={isDisabled || undefined}>
        <SearchIcon className={searchStyles.icon} />
        <input
          ref={inputRef}
          id={inputId}
          type="search"
          name={name}
          value={text}
          placeholder={placeholder}
          disabled={isDisabled}
          autoFocus={autoFocus}
          autoComplete="off"
          enterKeyHint="search"
          aria-describedby={description ? descriptionId : undefined}
          className={cx(styles.innerInput, searchStyles.input)}
          onChange={(event) => set(event.target.value)}
          onKeyDown={(event) => {
            if (event.nativeEvent.isComposing) return;
            if (event.key === 'Enter') {
              event.preventDefault();
              if (!isDisabled) onSubmit?.(text);
            } else if (event.key === 'Escape' && text !== '') {
              // Only a field with text takes Escape; an empty one leaves it to what is around it.
              event.preventDefault();
              event.stopPropagation();
              clear();
            }
          }}
        />
        {text === '' ? null : (
          <button
            type="button"
            tabIndex={-1}
            disabled={isDisabled}
            aria-label={t('ui.search.clear')}
            className={cx(styles.inputButton, native.inputButtonState)}
            // The input keeps focus: pressing the button does not take it.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => {
              clear();
              inputRef.current?.focus();
            }}
          >
            <CloseIcon />
          </button>
        )}
      </div>
      {description ? (
        <span id={descriptionId} className={styles.description}>
          {description}
        </span>
      ) : null}
    </div>
  );
}
