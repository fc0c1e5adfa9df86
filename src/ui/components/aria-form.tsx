import { useContext, type ReactNode } from 'react';
import { FormValidationContext } from 'react-aria-components';
import { FormContext } from 'react-aria-components/Form';
import { FormFieldsContext } from './text-field';

/**
 * What `Form` (form.tsx, a plain `<form>`) says, told to the React Aria field inside it the way
 * React Aria's own `Form` told it: its `validationBehavior` and the server's `validationErrors`,
 * which React Aria's fields show and clear by themselves. Every React Aria primitive with a form
 * value (select, multi-select, number field, checkbox, date range picker) renders inside it, so
 * `Form` itself needs no React Aria and the login route's form is the screens' form. Outside a
 * `Form` it adds nothing.
 */
export function InAriaForm({ children }: { children: ReactNode }) {
  const form = useContext(FormFieldsContext);
  if (!form.validationBehavior) return children;
  return (
    <FormContext value={{ validationBehavior: form.validationBehavior }}>
      <FormValidationContext value={form.serverErrors ?? NO_ERRORS}>{children}</FormValidationContext>
    </FormContext>
  );
}

const NO_ERRORS = {};
