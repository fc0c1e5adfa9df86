import { useId, useMemo, type ReactNode } from 'react';
import { useLocale } from 'react-aria-components/I18nProvider';
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
 * Progress of a bulk operation (features save, webhooks per type, sheet download, instance sync):
 * role progressbar with `aria-valuenow`/`aria-valuetext`, named by its visible label. Without React
 * Aria (./README.md, native first; it kept the lists' chunks heavy: docs/performance.md, Bundle): the
 * markup, the clamped value and the percentage formatted in the active locale are those RAC's
 * `ProgressBar` gave (progress-bar.test.tsx).
 */
export function ProgressBar({
  label,
  value = 0,
  minValue = 0,
  maxValue = 100,
  isIndeterminate,
  valueLabel,
  hideValue,
  tone = 'primary',
  className,
}: ProgressBarProps) {
  const { locale } = useLocale();
  const labelId = useId();
  const percentFormat = useMemo(() => new Intl.NumberFormat(locale, { style: 'percent' }), [locale]);
  const clamped = Math.min(Math.max(value, minValue), maxValue);
  const range = maxValue - minValue;
  const share = range === 0 ? 0 : (clamped - minValue) / range;
  const valueText = isIndeterminate ? undefined : (valueLabel ?? percentFormat.format(share));
  return (
    <div
      className={cx(styles.root, className)}
      role="progressbar"
      aria-labelledby={labelId}
      aria-valuenow={isIndeterminate ? undefined : clamped}
      aria-valuemin={minValue}
      aria-valuemax={maxValue}
      aria-valuetext={valueText}
    >
      <div className={styles.labels}>
        <span id={labelId}>{label}</span>
        {hideValue || isIndeterminate ? null : <span className={styles.value}>{valueText}</span>}
      </div>
      <div className={styles.track}>
        <div
          className={cx(styles.fill, styles.tone[tone], isIndeterminate && styles.indeterminate)}
          style={isIndeterminate ? undefined : { width: `${share * 100}%` }}
        />
      </div>
    </div>
  );
}
