import type { ReactNode } from 'react';
import { cx } from './class-names';
import * as native from './native-parts.css';
import * as styles from './toggle.css';

export interface SwitchProps {
  /** The visible label; it names the switch. */
  children: ReactNode;
  isSelected: boolean;
  onChange: (isSelected: boolean) => void;
  isDisabled?: boolean;
  /** A name that says more than the visible label (e.g. which chart a "Tabela" switch turns). */
  'aria-label'?: string;
  className?: string;
}

/**
 * An on/off switch on a native checkbox with role switch (no React Aria): settings that apply at
 * once — two-factor per user, a feature flag, "force update". Space toggles. Use Checkbox for
 * choices submitted with a form.
 */
export function Switch({
  children,
  isSelected,
  onChange,
  isDisabled,
  'aria-label': ariaLabel,
  className,
}: SwitchProps) {
  return (
    <label
      className={cx(styles.row, native.toggleRow, className)}
      data-selected={isSelected || undefined}
      data-disabled={isDisabled || undefined}
    >
      <input
        type="checkbox"
        role="switch"
        aria-label={ariaLabel}
        checked={isSelected}
        disabled={isDisabled}
        onChange={(event) => onChange(event.target.checked)}
        className={native.toggleInput}
      />
      <span className={cx(styles.track, native.toggleIndicator)} aria-hidden="true">
        <span className={styles.thumb} />
      </span>
      <span>{children}</span>
    </label>
  );
}
