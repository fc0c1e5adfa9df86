import { useState } from 'react';
import { Button } from 'react-aria-components/Button';
import { Input } from 'react-aria-components/Input';
import { TextField as RACTextField, type TextFieldProps as RACTextFieldProps } from 'react-aria-components/TextField';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';
import * as styles from './field.css';
import { FieldHelp, FieldLabel, type FieldChromeProps } from './field';
import { EyeIcon, EyeOffIcon } from './icons';

export interface PasswordFieldProps
  extends Omit<RACTextFieldProps, 'className' | 'style' | 'children' | 'type'>, FieldChromeProps {
  placeholder?: string;
  className?: string;
  /** `current-password` on login, `new-password` on create/change (password managers use it). */
  autoComplete?: 'current-password' | 'new-password';
}

/**
 * A password input with a show/hide toggle. The toggle is a real button whose name says what it
 * will do ("Mostrar senha" / "Ocultar senha"); it never submits the form and keeps focus on press.
 */
export function PasswordField({
  label,
  description,
  errorMessage,
  placeholder,
  className,
  autoComplete = 'current-password',
  ...props
}: PasswordFieldProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <RACTextField
      {...props}
      type={visible ? 'text' : 'password'}
      autoComplete={autoComplete}
      className={cx(styles.field, className)}
    >
      {({ isInvalid, isDisabled }) => (
        <>
          <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
          <div
            className={styles.groupBox}
            data-invalid={isInvalid || undefined}
            data-disabled={isDisabled || undefined}
          >
            <Input className={styles.innerInput} placeholder={placeholder} spellCheck={false} autoCapitalize="none" />
            <Button
              className={styles.inputButton}
              aria-label={visible ? t('ui.password.hide') : t('ui.password.show')}
              isDisabled={isDisabled}
              onPress={() => setVisible((v) => !v)}
            >
              {visible ? <EyeOffIcon /> : <EyeIcon />}
            </Button>
          </div>
          <FieldHelp description={description} errorMessage={errorMessage} />
        </>
      )}
    </RACTextField>
  );
}
