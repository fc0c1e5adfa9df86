import type { ReactNode } from 'react';
import { FieldError } from 'react-aria-components/FieldError';
import { Label } from 'react-aria-components/Label';
import { Text } from 'react-aria-components/Text';
import * as styles from './field.css';
import { errorText, type FieldErrorMessage } from './text-field';

/** Props every labelled field primitive shares (TextField, Select, DateRangePicker…). */
export interface FieldChromeProps {
  /** Visible label, translated by the caller. */
  label: ReactNode;
  /** Help text under the control, linked by `aria-describedby`. */
  description?: ReactNode;
  /** Translated error text (see `FieldErrorMessage` in field-validation.ts). */
  errorMessage?: FieldErrorMessage;
}

/** A field's label; a required field gets a visual asterisk (the input itself says required). */
export function FieldLabel({ children, isRequired }: { children: ReactNode; isRequired?: boolean }) {
  return (
    <Label className={styles.label}>
      {children}
      {isRequired ? (
        <span className={styles.required} aria-hidden="true">
          *
        </span>
      ) : null}
    </Label>
  );
}

/**
 * Description and error under a control. RAC wires both into the control's `aria-describedby`;
 * the error only renders while the field is invalid.
 */
export function FieldHelp({ description, errorMessage }: Pick<FieldChromeProps, 'description' | 'errorMessage'>) {
  return (
    <>
      {description ? (
        <Text slot="description" className={styles.description}>
          {description}
        </Text>
      ) : null}
      <FieldError className={styles.error}>{(validation) => errorText(validation, errorMessage)}</FieldError>
    </>
  );
}
