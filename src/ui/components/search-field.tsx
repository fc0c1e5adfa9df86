import { Button } from 'react-aria-components/Button';
import { Input } from 'react-aria-components/Input';
import {
  SearchField as RACSearchField,
  type SearchFieldProps as RACSearchFieldProps,
} from 'react-aria-components/SearchField';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';
import * as styles from './field.css';
import { FieldHelp, FieldLabel, type FieldChromeProps } from './field';
import { CloseIcon, SearchIcon } from './icons';
import * as searchStyles from './search-field.css';
import { VisuallyHidden } from './visually-hidden';

export interface SearchFieldProps
  extends Omit<RACSearchFieldProps, 'className' | 'style' | 'children'>, FieldChromeProps {
  placeholder?: string;
  className?: string;
  /** Hide the label visually (toolbars); it still names the input for screen readers. */
  labelHidden?: boolean;
}

/**
 * A search input (RAC `SearchField`, role searchbox): Enter calls `onSubmit`, Escape clears, and
 * a clear button appears while there is text. Debouncing belongs to the machine that searches.
 */
export function SearchField({
  label,
  labelHidden,
  description,
  errorMessage,
  placeholder,
  className,
  ...props
}: SearchFieldProps) {
  const { t } = useTranslation();
  return (
    <RACSearchField {...props} className={cx(styles.field, className)}>
      {({ isEmpty, isDisabled, isInvalid }) => (
        <>
          {labelHidden ? (
            <VisuallyHidden>
              <FieldLabel>{label}</FieldLabel>
            </VisuallyHidden>
          ) : (
            <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
          )}
          <div
            className={styles.groupBox}
            data-invalid={isInvalid || undefined}
            data-disabled={isDisabled || undefined}
          >
            <SearchIcon className={searchStyles.icon} />
            <Input className={cx(styles.innerInput, searchStyles.input)} placeholder={placeholder} />
            {isEmpty ? null : (
              <Button className={styles.inputButton} aria-label={t('ui.search.clear')}>
                <CloseIcon />
              </Button>
            )}
          </div>
          <FieldHelp description={description} errorMessage={errorMessage} />
        </>
      )}
    </RACSearchField>
  );
}
