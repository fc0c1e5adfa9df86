import type { ReactNode } from 'react';
import { Checkbox as RACCheckbox, type CheckboxProps as RACCheckboxProps } from 'react-aria-components/Checkbox';
import {
  CheckboxGroup as RACCheckboxGroup,
  type CheckboxGroupProps as RACCheckboxGroupProps,
} from 'react-aria-components/CheckboxGroup';
import { cx } from './class-names';
import { FieldHelp, FieldLabel, type FieldChromeProps } from './field';
import { CheckIcon, MinusIcon } from './icons';
import * as styles from './toggle.css';
import { InAriaForm } from './aria-form';

export interface CheckboxProps extends Omit<RACCheckboxProps, 'className' | 'style' | 'children'> {
  /**
   * The visible label (clicking it toggles too). Omit it only where React Aria names the checkbox
   * itself (`slot="selection"` in a table).
   */
  children?: ReactNode;
  className?: string;
}

/**
 * A checkbox (RAC `Checkbox`, a native input underneath): Space toggles; `isIndeterminate` for
 * "some selected". Inside a `CheckboxGroup` give it a `value`.
 */
export function Checkbox({ children, className, ...props }: CheckboxProps) {
  return (
    <InAriaForm>
      <RACCheckbox {...props} className={cx(styles.row, className)}>
        {({ isSelected, isIndeterminate }) => (
          <>
            <span className={styles.box} aria-hidden="true">
              {isIndeterminate ? (
                <MinusIcon size={14} strokeWidth={3} />
              ) : isSelected ? (
                <CheckIcon size={14} strokeWidth={3} />
              ) : null}
            </span>
            {children ? <span>{children}</span> : null}
          </>
        )}
      </RACCheckbox>
    </InAriaForm>
  );
}

export interface CheckboxGroupProps
  extends Omit<RACCheckboxGroupProps, 'className' | 'style' | 'children'>, FieldChromeProps {
  children: ReactNode;
  className?: string;
  orientation?: 'vertical' | 'horizontal';
}

/** A labelled group of checkboxes with one value array (features of a tenant, chosen instances). */
export function CheckboxGroup({
  label,
  description,
  errorMessage,
  children,
  className,
  orientation = 'vertical',
  ...props
}: CheckboxGroupProps) {
  return (
    <InAriaForm>
      <RACCheckboxGroup {...props} className={cx(styles.group, className)} data-orientation={orientation}>
        <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
        <div className={styles.options}>{children}</div>
        <FieldHelp description={description} errorMessage={errorMessage} />
      </RACCheckboxGroup>
    </InAriaForm>
  );
}
