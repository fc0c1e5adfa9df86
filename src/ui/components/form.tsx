import { useMemo, useState, type FormHTMLAttributes, type ReactNode, type Ref } from 'react';
import { cx } from './class-names';
import { FormFieldsContext, type FormFields } from './text-field';
import * as styles from './form.css';
import { AlertIcon } from './form-icons';

export interface FormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, 'className' | 'style' | 'children'> {
  children: ReactNode;
  /**
   * A message about the whole form (e.g. "Email ou/e senha errado(s)"), shown above the fields in
   * a `role="alert"` box so it is announced as soon as it appears.
   */
  formError?: ReactNode;
  /** The server's errors by field `name`: each shows on its field until the field is committed. */
  validationErrors?: Record<string, string | string[]>;
  /** `native` (the default): constraints block the submit; `aria`: fields only say what is wrong. */
  validationBehavior?: 'native' | 'aria';
  className?: string;
  ref?: Ref<HTMLFormElement>;
}

/**
 * The one form, a plain `<form>`, for the screens and the login page alike. Fields inside validate
 * on submit (`native`: the browser's constraints block it, the first invalid field gets focus, its
 * message shows under it; `aria`: `noValidate`, nothing blocks); server errors go in
 * `validationErrors`, keyed by field `name`, and show on those fields until the user edits them.
 * The text and password fields (text-field.tsx) read both from `FormFieldsContext`; React Aria's
 * fields (select, number field…) from React Aria's form contexts, which aria-form.tsx gives them
 * from the same values, as React Aria's `Form` did.
 */
export function Form({ children, formError, className, validationErrors, validationBehavior, ...props }: FormProps) {
  const behavior = validationBehavior ?? 'native';
  // The server's errors show on their text fields until each field is committed; a new
  // `validationErrors` object shows them all again (as React Aria's fields treat theirs).
  const [committed, setCommitted] = useState({ of: validationErrors, names: NONE });
  const names = committed.of === validationErrors ? committed.names : NONE;
  const fields = useMemo<FormFields>(
    () => ({
      validationBehavior: behavior,
      serverErrors: validationErrors,
      validationErrors:
        validationErrors &&
        Object.fromEntries(Object.entries(validationErrors).filter(([name]) => !names.includes(name))),
      onCommit: (name) => {
        if (validationErrors?.[name] && !names.includes(name))
          setCommitted({ of: validationErrors, names: [...names, name] });
      },
    }),
    [validationErrors, behavior, names],
  );
  return (
    <form noValidate={behavior !== 'native'} {...props} className={cx(styles.form, className)}>
      <FormFieldsContext value={fields}>
        {formError ? <FormError>{formError}</FormError> : null}
        {children}
      </FormFieldsContext>
    </form>
  );
}

const NONE: readonly string[] = [];

/** The form-level error box on its own, for layouts that place it elsewhere. */
export function FormError({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className={styles.formError}>
      <AlertIcon className={styles.formErrorIcon} />
      <span>{children}</span>
    </div>
  );
}

/** The row of buttons at the end of a form: right-aligned, wrapping on narrow screens. */
export function FormActions({ children }: { children: ReactNode }) {
  return <div className={styles.actions}>{children}</div>;
}
