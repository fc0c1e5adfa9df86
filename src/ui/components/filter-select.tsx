import { useId } from 'react';
import { cx } from './class-names';
import * as fieldStyles from './field.css';
import { FieldLabelText } from './field-label';
import { ChevronDownIcon } from './icons';
import * as styles from './filter-select.css';

export interface FilterSelectProps {
  label: string;
  options: readonly { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
  className?: string;
}

/**
 * A labelled native `<select>` with the fields' look (the chevron of select.tsx): a list's filters whose
 * choices are known and short (the audit log's operation and target type, the users' and tenants'
 * filters), without React Aria's select (the screen's chunk stays small: ./README.md, native first).
 */
export function FilterSelect({ label, options, value, onChange, className }: FilterSelectProps) {
  const id = useId();
  return (
    <div className={cx(fieldStyles.field, className)}>
      <FieldLabelText htmlFor={id}>{label}</FieldLabelText>
      <span className={styles.selectBox}>
        <select id={id} className={styles.select} value={value} onChange={(event) => onChange(event.target.value)}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <ChevronDownIcon className={styles.selectIcon} />
      </span>
    </div>
  );
}
