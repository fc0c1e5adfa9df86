import type { ReactNode } from 'react';
import { Form as RACForm, type FormProps as RACFormProps } from 'react-aria-components/Form';
import { cx } from './class-names';
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

export { FormActions, FormError } from './form-parts';
