import { cx } from './class-names';
import * as styles from './spinner.css';

export interface SpinnerProps {
  /**
   * Accessible name. With it the spinner is an indeterminate `progressbar` that screen readers
   * announce; without it the spinner is decorative (something else already says "loading").
   */
  label?: string;
  size?: keyof typeof styles.size;
  className?: string;
  /** Lets a pending {@link Button} add the spinner's name to its own (`aria-labelledby`). */
  id?: string;
}

/**
 * Indeterminate activity indicator on a plain element: a `progressbar` named by `label` (no value,
 * as React Aria's indeterminate ProgressBar renders it), light enough for the login route and the
 * blank pages.
 */
export function Spinner({ label, size = 'md', className, id }: SpinnerProps) {
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
