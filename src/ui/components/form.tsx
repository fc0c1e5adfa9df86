import { useMemo, useState, type ReactNode } from 'react';
import { Form as RACForm, type FormProps as RACFormProps } from 'react-aria-components/Form';
import { cx } from './class-names';
import { FormFieldsContext, type FormFields } from './text-field';
import * as styles from './form.css';
import { FormError } from './form-parts';

export interface FormProps extends Omit<RACFormProps, 'className' | 'style' | 'children'> {
  children: ReactNode;
  /**
   * A message about the whole form (e.g. "Email ou/e senha errado(s)"), shown above the fields in
   * a `role="alert"` box so it is announced as soon as it appears.
   */
  formError?: ReactNode;
  className?: string;
}

/**
 * A form (RAC `Form`). Fields inside validate natively on submit (the first invalid one gets
 * focus, its message shows under it); server errors go in `validationErrors`, keyed by field
 * `name`, and show on those fields until the user edits them. React Aria's fields (select, number
 * field…) read both from RAC's form; the native text and password fields (text-field.tsx) from
 * `FormFieldsContext`, given here the same values.
 */
export function Form({ children, formError, className, ...props }: FormProps) {
  const { validationErrors, validationBehavior } = props;
  // The server's errors show on their text fields until each field is committed; a new
  // `validationErrors` object shows them all again (as React Aria's fields treat theirs).
  const [committed, setCommitted] = useState({ of: validationErrors, names: NONE });
  const names = committed.of === validationErrors ? committed.names : NONE;
  const fields = useMemo<FormFields>(
    () => ({
      validationBehavior,
      validationErrors:
        validationErrors &&
        Object.fromEntries(Object.entries(validationErrors).filter(([name]) => !names.includes(name))),
      onCommit: (name) => {
        if (validationErrors?.[name] && !names.includes(name))
          setCommitted({ of: validationErrors, names: [...names, name] });
      },
    }),
    [validationErrors, validationBehavior, names],
  );
  return (
    <RACForm {...props} className={cx(styles.form, className)}>
      <FormFieldsContext value={fields}>
        {formError ? <FormError>{formError}</FormError> : null}
        {children}
      </FormFieldsContext>
    </RACForm>
  );
}

const NONE: readonly string[] = [];

export { FormActions, FormError } from './form-parts';
