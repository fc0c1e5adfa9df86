import type { ReactNode } from 'react';
import { Label } from 'react-aria-components/Label';
import { ProgressBar as RACProgressBar } from 'react-aria-components/ProgressBar';
import { cx } from './class-names';
import * as styles from './progress-bar.css';

export interface ProgressBarProps {
  /** Visible label, e.g. "Salvando recursos" (translated). */
  label: ReactNode;
  /** Current value; omit with `isIndeterminate`. */
  value?: number;
  minValue?: number;
  maxValue?: number;
  /** Unknown duration: an animated bar and no value. */
  isIndeterminate?: boolean;
  /**
   * Text of the value, e.g. "3 de 8 recursos". By default React Aria formats the percentage in the
   * active locale ("38%"). Shown beside the label and read as `aria-valuetext`.
   */
  valueLabel?: string;
  /** Hide the visible value (it is still announced). */
  hideValue?: boolean;
  /** `success` when done, `danger` when it failed; the label should say so too. */
  tone?: keyof typeof styles.tone;
  className?: string;
}

/**
 * Progress of a bulk operation (features save, webhooks per type, sheet download, instance sync)
 * — RAC `ProgressBar`, role progressbar with `aria-valuenow`/`aria-valuetext`.
 */
export function ProgressBar({
  label,
  value,
  minValue = 0,
  maxValue = 100,
  isIndeterminate,
  valueLabel,
  hideValue,
  tone = 'primary',
  className,
}: ProgressBarProps) {
  return (
    <RACProgressBar
      value={value}
      minValue={minValue}
      maxValue={maxValue}
      isIndeterminate={isIndeterminate}
      valueLabel={valueLabel}
      className={cx(styles.root, className)}
    >
      {({ percentage, valueText }) => (
        <>
          <div className={styles.labels}>
            <Label>{label}</Label>
            {hideValue || isIndeterminate ? null : <span className={styles.value}>{valueText}</span>}
          </div>
          <div className={styles.track}>
            <div
              className={cx(styles.fill, styles.tone[tone], isIndeterminate && styles.indeterminate)}
              style={isIndeterminate ? undefined : { width: `${percentage ?? 0}%` }}
            />
          </div>
        </>
      )}
    </RACProgressBar>
  );
}
