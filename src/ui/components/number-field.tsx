import { Button } from 'react-aria-components/Button';
import { Group } from 'react-aria-components/Group';
import { Input } from 'react-aria-components/Input';
import {
  NumberField as RACNumberField,
  type NumberFieldProps as RACNumberFieldProps,
} from 'react-aria-components/NumberField';
import { cx } from './class-names';
import * as styles from './field.css';
import { FieldHelp, FieldLabel, type FieldChromeProps } from './field';
import { MinusIcon, PlusIcon } from './icons';
import * as numberStyles from './number-field.css';
import { InAriaForm } from './aria-form';

export interface NumberFieldProps
  extends Omit<RACNumberFieldProps, 'className' | 'style' | 'children'>, FieldChromeProps {
  placeholder?: string;
  className?: string;
}

/**
 * A localized number input (RAC `NumberField`): user limit, ticket limit, days ago. Parses and
 * formats in the active locale (1.234,5 in pt-BR); arrow keys and the stepper buttons (named by
 * React Aria in the active locale) change the value within `minValue`/`maxValue`.
 */
export function NumberField({ label, description, errorMessage, placeholder, className, ...props }: NumberFieldProps) {
  return (
    <InAriaForm>
      <RACNumberField {...props} className={cx(styles.field, className)}>
        <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
        <Group className={styles.groupBox}>
          <Input className={cx(styles.innerInput, numberStyles.tabular)} placeholder={placeholder} />
          <Button slot="decrement" className={styles.inputButton}>
            <MinusIcon />
          </Button>
          <Button slot="increment" className={styles.inputButton}>
            <PlusIcon />
          </Button>
        </Group>
        <FieldHelp description={description} errorMessage={errorMessage} />
      </RACNumberField>
    </InAriaForm>
  );
}
