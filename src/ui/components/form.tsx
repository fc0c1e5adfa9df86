import type { ReactNode } from 'react';
import { Form as RACForm, type FormProps as RACFormProps } from 'react-aria-components/Form';
import { cx } from './class-names';
import * as styles from './form.css';
import { AlertIcon } from './icons';

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
 * `name`, and show on those fields until the user edits them.
 */
export function Form({ children, formError, className, ...props }: FormProps) {
  return (
    <RACForm {...props} className={cx(styles.form, className)}>
      {formError ? <FormError>{formError}</FormError> : null}
      {children}
    </RACForm>
  );
}

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
