import type { ReactNode } from 'react';
import {
  Radio as RACRadio,
  RadioGroup as RACRadioGroup,
  type RadioGroupProps as RACRadioGroupProps,
  type RadioProps as RACRadioProps,
} from 'react-aria-components/RadioGroup';
import { cx } from './class-names';
import { FieldHelp, FieldLabel, type FieldChromeProps } from './field';
import * as styles from './toggle.css';

export interface RadioGroupProps
  extends Omit<RACRadioGroupProps, 'className' | 'style' | 'children'>, FieldChromeProps {
  children: ReactNode;
  className?: string;
}

/**
 * One choice among a few visible options (RAC `RadioGroup`): Tab enters the group at the selected
 * radio, arrow keys move and select. For more than ~5 options prefer `Select`.
 */
export function RadioGroup({ label, description, errorMessage, children, className, ...props }: RadioGroupProps) {
  return (
    <RACRadioGroup {...props} className={cx(styles.group, className)}>
      <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
      <div className={styles.options}>{children}</div>
      <FieldHelp description={description} errorMessage={errorMessage} />
    </RACRadioGroup>
  );
}

export interface RadioProps extends Omit<RACRadioProps, 'className' | 'style' | 'children'> {
  children: ReactNode;
  className?: string;
}

/** One option of a {@link RadioGroup}. */
export function Radio({ children, className, ...props }: RadioProps) {
  return (
    <RACRadio {...props} className={cx(styles.row, className)}>
      <span className={styles.radio} aria-hidden="true" />
      <span>{children}</span>
    </RACRadio>
  );
}
