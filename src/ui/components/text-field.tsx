import { Input } from 'react-aria-components/Input';
import { TextField as RACTextField, type TextFieldProps as RACTextFieldProps } from 'react-aria-components/TextField';
import { cx } from './class-names';
import * as styles from './field.css';
import { FieldHelp, FieldLabel, type FieldChromeProps } from './field';

export interface TextFieldProps extends Omit<RACTextFieldProps, 'className' | 'style' | 'children'>, FieldChromeProps {
  placeholder?: string;
  className?: string;
}

/**
 * A labelled single-line text input (RAC `TextField`): email, name, CNPJ… Validation comes from
 * `isRequired`, `type`, `validate` or the surrounding `Form`'s `validationErrors` (server errors
 * keyed by `name`); the error shows under the input and is linked to it.
 */
export function TextField({ label, description, errorMessage, placeholder, className, ...props }: TextFieldProps) {
  return (
    <RACTextField {...props} className={cx(styles.field, className)}>
      <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
      <Input className={styles.input} placeholder={placeholder} />
      <FieldHelp description={description} errorMessage={errorMessage} />
    </RACTextField>
  );
}
