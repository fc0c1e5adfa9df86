import { Button } from 'react-aria-components/Button';
import { ListBox } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { Select as RACSelect, SelectValue, type SelectProps as RACSelectProps } from 'react-aria-components/Select';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';
import { InDialogLayer } from './dialog-portal';
import * as fieldStyles from './field.css';
import { FieldHelp, FieldLabel, type FieldChromeProps } from './field';
import { ChevronDownIcon } from './icons';
import { OptionItem, type SelectOption } from './list-box';
import * as styles from './popover.css';
import { InAriaForm } from './aria-form';

export type { SelectOption } from './list-box';

export interface SelectProps<T extends SelectOption>
  extends
    Omit<RACSelectProps<T, 'single'>, 'className' | 'style' | 'children' | 'items' | 'selectionMode'>,
    FieldChromeProps {
  items: Iterable<T>;
  /** Shown while nothing is selected; defaults to "Selecione…". */
  placeholder?: string;
  className?: string;
}

/**
 * Pick one of a known list (RAC `Select`, a button that opens a listbox): role, department, plan,
 * page size. Type-ahead and arrow keys work on the closed button; the value is the option's `id`
 * and it submits with forms through `name`.
 */
export function Select<T extends SelectOption>({
  label,
  description,
  errorMessage,
  items,
  placeholder,
  className,
  ...props
}: SelectProps<T>) {
  const { t } = useTranslation();
  return (
    <InAriaForm>
      <RACSelect
        {...props}
        placeholder={placeholder ?? t('ui.select.placeholder')}
        className={cx(fieldStyles.field, className)}
      >
        <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
        <Button className={styles.trigger}>
          <SelectValue className={styles.value} />
          <ChevronDownIcon />
        </Button>
        <FieldHelp description={description} errorMessage={errorMessage} />
        <InDialogLayer>
          <Popover className={styles.popover}>
            <ListBox items={items} className={styles.list}>
              {(option) => <OptionItem option={option} />}
            </ListBox>
          </Popover>
        </InDialogLayer>
      </RACSelect>
    </InAriaForm>
  );
}
