import type { ReactNode } from 'react';
import * as styles from './field.css';

/** A native `<label>` with the fields' look; a required field gets a visual asterisk. */
export function FieldLabelText({
  children,
  htmlFor,
  isRequired,
}: {
  children: ReactNode;
  htmlFor: string;
  isRequired?: boolean | undefined;
}) {
  return (
    <label htmlFor={htmlFor} className={styles.label}>
      {children}
      {isRequired ? (
        <span className={styles.required} aria-hidden="true">
          *
        </span>
      ) : null}
    </label>
  );
}
