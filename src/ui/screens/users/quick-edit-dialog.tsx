import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserRow } from '../../../machines/users/users-actors';
import { Button } from '../../components/button';
import { Modal } from '../../components/dialog';
import { Form } from '../../components/form';
import { TextField } from '../../components/text-field';
import * as styles from './users.css';

/** Which single field the dialog changes: `PUT /api/users/{id}` with only `{name}` or only `{email}`. */
export type QuickField = 'name' | 'email';

export interface QuickEditDialogProps {
  field: QuickField;
  user: UserRow;
  isPending: boolean;
  /** The server's refusal of the last submit (translated), shown on the field until it is edited. */
  error: string | null;
  onSubmit: (value: string) => void;
  onClose: () => void;
}

/**
 * Changes a user's name alone or email alone. The browser checks the field (required, email
 * format) before anything is sent; the server's refusal shows under the field.
 */
export function QuickEditDialog({ field, user, isPending, error, onSubmit, onClose }: QuickEditDialogProps) {
  const { t } = useTranslation();
  const formId = useId();
  const [value, setValue] = useState(field === 'name' ? user.name : user.email);
  const [submitted, setSubmitted] = useState<string | null>(null);
  // The server's message belongs to the value it refused; editing the value clears it.
  const serverError = error !== null && submitted === value ? error : null;
  return (
    <Modal
      isOpen
      onClose={onClose}
      isPending={isPending}
      size="sm"
      title={t(field === 'name' ? 'users.quick.renameTitle' : 'users.quick.emailTitle', { name: user.name })}
      footer={(close) => (
        <>
          <Button variant="secondary" isDisabled={isPending} onPress={close}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form={formId} isPending={isPending} pendingLabel={t('users.form.saving')}>
            {t('common.save')}
          </Button>
        </>
      )}
    >
      <Form
        id={formId}
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(value);
          onSubmit(value);
        }}
      >
        <p className={styles.help}>{t('users.quick.onlyThis')}</p>
        <TextField
          autoFocus
          name={field}
          type={field === 'email' ? 'email' : 'text'}
          autoComplete="off"
          label={t(field === 'name' ? 'users.quick.newName' : 'users.quick.newEmail')}
          value={value}
          onChange={setValue}
          isRequired
          maxLength={field === 'name' ? 120 : undefined}
          isInvalid={serverError !== null || undefined}
          errorMessage={({ validationDetails }) =>
            serverError ??
            (validationDetails.valueMissing
              ? t('users.form.required')
              : validationDetails.typeMismatch
                ? t('users.form.emailInvalid')
                : null)
          }
        />
      </Form>
    </Modal>
  );
}
