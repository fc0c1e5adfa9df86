import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { I18nKey } from '../../../../domain/i18n-key';
import type { ActionError } from '../../../../machines/shared/request-error';
import { Button } from '../../../components/button';
import { Form, FormActions } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import * as styles from './two-factor.css';

export interface CodeFormProps {
  label: string;
  description?: string;
  submitLabel: string;
  variant?: 'primary' | 'danger';
  /** Enrolment takes 6 digits only (numeric keyboard); disabling also takes a recovery code. */
  digitsOnly: boolean;
  isPending: boolean;
  codeError: I18nKey | null;
  error: ActionError | null;
  onSubmit: (code: string) => void;
  /** Buttons before the submit one (cancel, new key). */
  extraActions?: ReactNode;
}

/**
 * The code field and its submit button. A refusal shows on the field until the code is edited,
 * and again if the same code is sent again.
 */
export function CodeForm({
  label,
  description,
  submitLabel,
  variant = 'primary',
  digitsOnly,
  isPending,
  codeError,
  error,
  onSubmit,
  extraActions,
}: CodeFormProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const showError = codeError !== null && sent === code && !isPending;
  return (
    <Form
      validationBehavior="aria"
      formError={error && !isPending ? t('twoFactor.failure', { what: t(error.key), why: t(error.reason) }) : null}
      onSubmit={(event) => {
        event.preventDefault();
        setSent(code);
        onSubmit(code);
      }}
    >
      <TextField
        className={styles.codeField}
        label={label}
        description={description}
        name="code"
        value={code}
        onChange={setCode}
        inputMode={digitsOnly ? 'numeric' : 'text'}
        autoComplete="one-time-code"
        maxLength={digitsOnly ? 7 : 12}
        isInvalid={showError}
        errorMessage={showError && codeError ? t(codeError) : undefined}
      />
      <FormActions>
        {extraActions}
        <Button type="submit" variant={variant} isPending={isPending}>
          {submitLabel}
        </Button>
      </FormActions>
    </Form>
  );
}
