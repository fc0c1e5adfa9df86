import { Button } from 'react-aria-components/Button';
import { ComboBox as RACComboBox, type ComboBoxProps as RACComboBoxProps } from 'react-aria-components/ComboBox';
import { Input } from 'react-aria-components/Input';
import { ListBox } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';
import * as fieldStyles from './field.css';
import { FieldHelp, FieldLabel, type FieldChromeProps } from './field';
import { ChevronDownIcon } from './icons';
import { OptionItem, type SelectOption } from './list-box';
import * as styles from './popover.css';
import { VisuallyHidden } from './visually-hidden';

export interface ComboBoxProps<T extends SelectOption>
  extends Omit<RACComboBoxProps<T>, 'className' | 'style' | 'children' | 'items' | 'defaultItems'>, FieldChromeProps {
  /** All options; the ComboBox filters them by what is typed (locale-aware "contains"). */
  items: Iterable<T>;
  placeholder?: string;
  className?: string;
  /** Keep the label for screen readers only (compact toolbars such as the navbar's tenant switcher). */
  labelHidden?: boolean;
}

/**
 * Type to filter, then pick one (RAC `ComboBox`): tenant switcher, instance picker, long lists.
 * ArrowDown opens the list, Enter picks, Escape closes/clears; the value is the option's `id`.
 */
export function ComboBox<T extends SelectOption>({
  label,
  labelHidden,
  description,
  errorMessage,
  items,
  placeholder,
  className,
  ...props
}: ComboBoxProps<T>) {
  const { t } = useTranslation();
  return (
    <RACComboBox allowsEmptyCollection {...props} defaultItems={items} className={cx(fieldStyles.field, className)}>
      {({ isInvalid, isDisabled }) => (
        <>
          {labelHidden ? (
            <VisuallyHidden>
              <FieldLabel>{label}</FieldLabel>
            </VisuallyHidden>
          ) : (
            <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
          )}
          <div
            className={fieldStyles.groupBox}
            data-invalid={isInvalid || undefined}
            data-disabled={isDisabled || undefined}
          >
            <Input className={fieldStyles.innerInput} placeholder={placeholder} />
            <Button className={fieldStyles.inputButton} aria-label={t('ui.select.showOptions')}>
              <ChevronDownIcon />
            </Button>
          </div>
          <FieldHelp description={description} errorMessage={errorMessage} />
          <Popover className={styles.popover}>
            <ListBox
              className={styles.list}
              renderEmptyState={() => <div className={styles.empty}>{t('ui.select.noResults')}</div>}
            >
              {(option: T) => <OptionItem option={option} />}
            </ListBox>
          </Popover>
        </>
      )}
    </RACComboBox>
  );
}
