import type { ReactNode } from 'react';
import { FieldError, type ValidationResult } from 'react-aria-components/FieldError';
import { Label } from 'react-aria-components/Label';
import { Text } from 'react-aria-components/Text';
import * as styles from './field.css';

/** Props every labelled field primitive shares (TextField, Select, DateRangePicker…). */
export interface FieldChromeProps {
  /** Visible label, translated by the caller. */
  label: ReactNode;
  /** Help text under the control, linked by `aria-describedby`. */
  description?: ReactNode;
  /**
   * Translated error text. A string replaces the browser's native messages (required, type=email,
   * min/max) and shows when `isInvalid` is set; messages from `validate` or from the form's
   * `validationErrors` (server errors) are already app text and show as they are. A function
   * receives RAC's validation result and decides alone.
   */
  errorMessage?: string | ((validation: ValidationResult) => ReactNode);
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

/** Native constraint failures: their browser text is untranslated, so the caller's text replaces it. */
function failedNatively(details: ValidityState): boolean {
  return (
    details.valueMissing ||
    details.typeMismatch ||
    details.patternMismatch ||
    details.tooShort ||
    details.tooLong ||
    details.rangeOverflow ||
    details.rangeUnderflow ||
    details.stepMismatch ||
    details.badInput
  );
}

function errorText(validation: ValidationResult, errorMessage: FieldChromeProps['errorMessage']): ReactNode {
  if (typeof errorMessage === 'function') return errorMessage(validation);
  if (errorMessage && (failedNatively(validation.validationDetails) || validation.validationErrors.length === 0)) {
    return errorMessage;
  }
  return validation.validationErrors.join(' ');
}
