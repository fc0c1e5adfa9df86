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
  /** Help text under the select (as select.tsx's), linked by `aria-describedby`. */
  description?: string;
  className?: string;
}

/**
 * A labelled native `<select>` with the fields' look (the chevron of select.tsx): a list's filters whose
 * choices are known and short (the audit log's operation and target type, the users' and tenants'
 * filters, the dashboards' period), without React Aria's select (the screen's chunk stays small:
 * ./README.md, native first).
 */
export function FilterSelect({ label, options, value, onChange, description, className }: FilterSelectProps) {
  const id = useId();
  const descriptionId = `${id}-description`;
  return (
    <div className={cx(fieldStyles.field, className)}>
      <FieldLabelText htmlFor={id}>{label}</FieldLabelText>
      <span className={styles.selectBox}>
        <select
          id={id}
          className={styles.select}
          value={value}
          aria-describedby={description ? descriptionId : undefined}
          onChange={(event) => onChange(event.target.value)}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <ChevronDownIcon className={styles.selectIcon} />
      </span>
      {description ? (
        <span id={descriptionId} className={fieldStyles.description}>
          {description}
        </span>
      ) : null}
    </div>
  );
}
