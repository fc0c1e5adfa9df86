import { ProgressBar } from 'react-aria-components/ProgressBar';
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
}

/**
 * Indeterminate activity indicator. Built on RAC `ProgressBar` so that inside a pending `Button`
 * RAC links it to the button's name automatically (the button reads "Salvar, Carregando…").
 */
export function Spinner({ label, size = 'md', className }: SpinnerProps) {
  const circle = <span className={cx(styles.spinner, styles.size[size])} aria-hidden="true" />;
  if (!label) return <span className={cx(styles.wrapper, className)}>{circle}</span>;
  return (
    <ProgressBar isIndeterminate aria-label={label} className={cx(styles.wrapper, className)}>
      {circle}
    </ProgressBar>
  );
}
