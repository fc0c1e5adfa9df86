import type { Key } from 'react-aria-components/ListBox';
import { ListBoxItem } from 'react-aria-components/ListBox';
import { CheckIcon } from './icons';
import * as styles from './popover.css';

/** An option of Select, ComboBox and MultiSelect. `label` is shown and used for type-ahead and filtering. */
export interface SelectOption {
  id: Key;
  label: string;
  /** Secondary text under the label (e.g. a user's email). */
  description?: string;
  isDisabled?: boolean;
}

/** One styled option (RAC `ListBoxItem`); a check mark (not colour alone) shows it is selected. */
export function OptionItem({ option }: { option: SelectOption }) {
  return (
    <ListBoxItem id={option.id} textValue={option.label} isDisabled={option.isDisabled} className={styles.item}>
      {({ isSelected }) => (
        <>
          <span className={styles.check}>{isSelected ? <CheckIcon /> : null}</span>
          <span className={styles.itemLabel}>
            {option.label}
            {option.description ? <span className={styles.description}>{option.description}</span> : null}
          </span>
        </>
      )}
    </ListBoxItem>
  );
}
