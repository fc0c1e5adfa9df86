import { useId } from 'react';
import { cx } from '../../components/class-names';
import * as fieldStyles from '../../components/field.css';
import { FieldLabelText } from '../../components/field-label';
import { ChevronDownIcon } from '../../components/icons';
import * as styles from './audit.css';

export interface AuditSelectProps {
  label: string;
  options: readonly { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
  className?: string;
}

/**
 * A labelled native `<select>` with the fields' look (the chevron of select.tsx): the operation and
 * target-type filters, whose lists are known and short, without React Aria's select (the screen's
 * chunk stays small: src/ui/components/README.md, native first).
 */
export function AuditSelect({ label, options, value, onChange, className }: AuditSelectProps) {
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
