import type { ReactNode } from 'react';
import { Switch as RACSwitch, type SwitchProps as RACSwitchProps } from 'react-aria-components/Switch';
import { cx } from './class-names';
import * as styles from './toggle.css';

export interface SwitchProps extends Omit<RACSwitchProps, 'className' | 'style' | 'children'> {
  /** The visible label; it names the switch. */
  children: ReactNode;
  className?: string;
}

/**
 * An on/off switch (RAC `Switch`, role switch): settings that apply at once — two-factor per user,
 * a feature flag, "force update". Space toggles. Use Checkbox for choices submitted with a form.
 */
export function Switch({ children, className, ...props }: SwitchProps) {
  return (
    <RACSwitch {...props} className={cx(styles.row, className)}>
      <span className={styles.track} aria-hidden="true">
        <span className={styles.thumb} />
      </span>
      <span>{children}</span>
    </RACSwitch>
  );
}
