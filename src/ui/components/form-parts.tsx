import type { FormHTMLAttributes, ReactNode, Ref } from 'react';
import { cx } from './class-names';
import * as styles from './form.css';
import { AlertIcon } from './form-icons';

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

export interface NativeFormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, 'className' | 'style'> {
  children: ReactNode;
  /** A message about the whole form, in a `role="alert"` box above the fields. */
  formError?: ReactNode;
  className?: string;
  ref?: Ref<HTMLFormElement>;
}

/**
 * {@link Form} as a plain `<form>`, for a form of text and password fields only (text-field.tsx), as
 * on the login route: the browser's constraint validation runs on submit and the fields show its
 * result themselves. No server errors per field: those come through `Form`, which also serves
 * React Aria's fields (select, number field…).
 */
export function NativeForm({ children, formError, className, ...props }: NativeFormProps) {
  return (
    <form {...props} className={cx(styles.form, className)}>
      {formError ? <FormError>{formError}</FormError> : null}
      {children}
    </form>
  );
}
