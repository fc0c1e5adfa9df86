import { useId, type ReactNode } from 'react';
import { cx } from './class-names';
import * as fieldStyles from './field.css';
import * as native from './native-parts.css';
import * as styles from './toggle.css';

export interface RadioGroupProps<V extends string> {
  /** The group's visible label; it names the radiogroup. */
  label: ReactNode;
  value: V;
  onChange: (value: V) => void;
  options: readonly { value: V; label: ReactNode }[];
  isDisabled?: boolean;
  className?: string;
}

/**
 * One choice among a few visible options, on native radios (no React Aria): Tab enters at the
 * checked one, arrow keys move and choose, a screen reader hears a named radiogroup of radios. For
 * more than ~5 options prefer `Select`.
 */
export function RadioGroup<V extends string>({
  label,
  value,
  onChange,
  options,
  isDisabled,
  className,
}: RadioGroupProps<V>) {
  const id = useId();
  return (
    <div
      role="radiogroup"
      aria-labelledby={`${id}-label`}
      aria-disabled={isDisabled || undefined}
      className={cx(styles.group, className)}
    >
      <span id={`${id}-label`} className={fieldStyles.label}>
        {label}
      </span>
      <div className={styles.options}>
        {options.map((option) => (
          <label
            key={option.value}
            className={cx(styles.row, native.toggleRow)}
            data-selected={option.value === value || undefined}
            data-disabled={isDisabled || undefined}
          >
            <input
              type="radio"
              name={id}
              value={option.value}
              checked={option.value === value}
              disabled={isDisabled}
              onChange={() => onChange(option.value)}
              className={native.toggleInput}
            />
            <span className={cx(styles.radio, native.toggleIndicator)} aria-hidden="true" />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </div>
  );
}
