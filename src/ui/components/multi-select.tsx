import { useState } from 'react';
import { Autocomplete, useFilter } from 'react-aria-components/Autocomplete';
import { Button } from 'react-aria-components/Button';
import { Input } from 'react-aria-components/Input';
import { ListBox, type Key } from 'react-aria-components/ListBox';
import { Popover } from 'react-aria-components/Popover';
import { SearchField } from 'react-aria-components/SearchField';
import { Select, SelectValue } from 'react-aria-components/Select';
import { Tag, TagGroup, TagList } from 'react-aria-components/TagGroup';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';
import { InDialogLayer } from './dialog-portal';
import * as fieldStyles from './field.css';
import { FieldHelp, FieldLabel, type FieldChromeProps } from './field';
import { ChevronDownIcon, CloseIcon, SearchIcon } from './icons';
import { OptionItem, type SelectOption } from './list-box';
import * as styles from './multi-select.css';
import * as popoverStyles from './popover.css';
import * as searchStyles from './search-field.css';
import { VisuallyHidden } from './visually-hidden';
import { InAriaForm } from './aria-form';

export interface MultiSelectProps<T extends SelectOption> extends FieldChromeProps {
  items: readonly T[];
  /** Selected ids (controlled). */
  value?: readonly Key[];
  defaultValue?: readonly Key[];
  onChange?: (value: Key[]) => void;
  /** Submits each selected id under this name (hidden native select). */
  name?: string;
  isRequired?: boolean;
  isDisabled?: boolean;
  isInvalid?: boolean;
  /** Shows a filter box in the list; on by default for more than 7 options (users). */
  searchable?: boolean;
  placeholder?: string;
  className?: string;
}

/**
 * Pick several of a list — "users multi-select" (login-failure report), "types multi-select"
 * (webhooks). RAC `Select` in multiple mode, with an `Autocomplete` filter inside the popover and
 * the chosen items as removable tags (RAC `TagGroup`: arrows move, Delete/Backspace removes).
 */
export function MultiSelect<T extends SelectOption>(props: MultiSelectProps<T>) {
  const { label, description, errorMessage, items, value, defaultValue, onChange, placeholder, className } = props;
  const { t } = useTranslation();
  const { contains } = useFilter({ sensitivity: 'base' });
  const [uncontrolled, setUncontrolled] = useState<readonly Key[]>(defaultValue ?? []);
  const selected = value ?? uncontrolled;
  const update = (next: Key[]) => {
    if (value === undefined) setUncontrolled(next);
    onChange?.(next);
  };
  const searchable = props.searchable ?? items.length > 7;
  const list = (
    <ListBox
      items={items}
      className={popoverStyles.list}
      renderEmptyState={() => <div className={popoverStyles.empty}>{t('ui.select.noResults')}</div>}
    >
      {(option) => <OptionItem option={option} />}
    </ListBox>
  );
  const chosen = items.filter((item) => selected.includes(item.id));
  return (
    <InAriaForm>
      <div className={cx(styles.root, className)}>
        <Select
          selectionMode="multiple"
          value={selected}
          onChange={update}
          name={props.name}
          isRequired={props.isRequired}
          isDisabled={props.isDisabled}
          isInvalid={props.isInvalid}
          className={fieldStyles.field}
        >
          <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
          <Button className={popoverStyles.trigger}>
            <SelectValue className={popoverStyles.value}>
              {({ isPlaceholder }) =>
                isPlaceholder
                  ? (placeholder ?? t('ui.multiSelect.none'))
                  : t('ui.multiSelect.selected', { count: selected.length })
              }
            </SelectValue>
            <ChevronDownIcon />
          </Button>
          <FieldHelp description={description} errorMessage={errorMessage} />
          <InDialogLayer>
            <Popover className={popoverStyles.popover}>
              {searchable ? (
                <Autocomplete filter={contains}>
                  <FilterField label={t('ui.multiSelect.filter')} clearLabel={t('ui.search.clear')} />
                  {list}
                </Autocomplete>
              ) : (
                list
              )}
            </Popover>
          </InDialogLayer>
        </Select>
        {chosen.length > 0 ? (
          <TagGroup
            aria-label={t('ui.multiSelect.selectedList')}
            onRemove={(keys) => update(selected.filter((key) => !keys.has(key)))}
          >
            <TagList items={chosen} className={styles.tagList}>
              {(item) => (
                <Tag id={item.id} textValue={item.label} isDisabled={props.isDisabled} className={styles.tag}>
                  <span className={styles.tagText}>{item.label}</span>
                  <Button slot="remove" className={styles.tagRemove}>
                    <CloseIcon size={12} />
                  </Button>
                </Tag>
              )}
            </TagList>
          </TagGroup>
        ) : null}
      </div>
    </InAriaForm>
  );
}

/**
 * The list's filter: React Aria's SearchField, which the Autocomplete around it wires to the list
 * (a plain input would not filter it), with search-field.tsx's look. Part of this primitive only;
 * screens use `SearchField` (search-field.tsx).
 */
function FilterField({ label, clearLabel }: { label: string; clearLabel: string }) {
  return (
    <SearchField autoFocus className={cx(fieldStyles.field, styles.search)}>
      {({ isEmpty }) => (
        <>
          <VisuallyHidden>
            <FieldLabel>{label}</FieldLabel>
          </VisuallyHidden>
          <div className={fieldStyles.groupBox}>
            <SearchIcon className={searchStyles.icon} />
            <Input className={cx(fieldStyles.innerInput, searchStyles.input)} />
            {isEmpty ? null : (
              <Button className={fieldStyles.inputButton} aria-label={clearLabel}>
                <CloseIcon />
              </Button>
            )}
          </div>
        </>
      )}
    </SearchField>
  );
}
