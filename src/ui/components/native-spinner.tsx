import { cx } from './class-names';
import * as styles from './spinner.css';

export interface NativeSpinnerProps {
  /** Accessible name; without it the spinner is decorative. */
  label?: string;
  size?: keyof typeof styles.size;
  className?: string;
  id?: string;
}

/**
 * The {@link Spinner} without React Aria: an indeterminate `progressbar` named by `label`, as RAC's
 * `ProgressBar` renders it. For the login route and the blank pages (no RAC in the entry); inside a
 * RAC `Button` keep `Spinner`, which RAC links into the button's name.
 */
export function NativeSpinner({ label, size = 'md', className, id }: NativeSpinnerProps) {
  const circle = <span className={cx(styles.spinner, styles.size[size])} aria-hidden="true" />;
  if (!label) return <span className={cx(styles.wrapper, className)}>{circle}</span>;
  return (
    <span
      role="progressbar"
      id={id}
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      className={cx(styles.wrapper, className)}
    >
      {circle}
    </span>
  );
}
