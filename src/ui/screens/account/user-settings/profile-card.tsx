import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../../machines/session/session-storage';
import { isNewEmail, type FormFeedback } from '../../../../machines/account/user-settings.machine';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { Form, FormActions } from '../../../components/form';
import { PasswordField, TextField } from '../../../components/text-field';
import { useFeedbackText } from '../../../hooks/use-feedback-text';
import * as styles from './user-settings.css';

export interface ProfileCardProps {
  user: User;
  /** The server lets only holders of route permission `users` change names and emails, even their own. */
  isSaving: boolean;
  feedback: FormFeedback;
  onSave: (name: string, email: string, currentPassword: string) => void;
}

/**
 * Own name and email, with the username and role for reference. A new email asks for the current
 * password (the field appears once the address differs from the stored one).
 */
export function ProfileCard({ user, isSaving, feedback, onSave }: ProfileCardProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [current, setCurrent] = useState('');
  const newEmail = isNewEmail(email, user.email);
  const { validationErrors, formError } = useFeedbackText(feedback, 'settings.failure');
  const changed = name.trim() !== user.name || email.trim() !== user.email;
  return (
    <Card title={t('settings.profile.heading')}>
      <p className={styles.muted}>{t('settings.profile.intro')}</p>
      <dl className={styles.facts}>
        <dt className={styles.factName}>{t('settings.profile.username')}</dt>
        <dd className={styles.factValue}>{user.username}</dd>
        <dt className={styles.factName}>{t('settings.profile.role')}</dt>
        <dd className={styles.factValue}>{user.role.display_name}</dd>
      </dl>
      <Form
        className={styles.form}
        validationBehavior="aria"
        validationErrors={validationErrors}
        formError={formError}
        onSubmit={(event) => {
          event.preventDefault();
          onSave(name, email, newEmail ? current : '');
        }}
      >
        <TextField label={t('settings.profile.name')} name="name" value={name} onChange={setName} autoComplete="name" />
        <TextField
          label={t('settings.profile.email')}
          name="email"
          type="email"
          value={email}
          onChange={setEmail}
          autoComplete="email"
        />
        {newEmail ? (
          <PasswordField
            label={t('settings.profile.currentPassword')}
            description={t('settings.profile.currentPasswordHelp')}
            name="currentPassword"
            value={current}
            onChange={setCurrent}
            autoComplete="current-password"
          />
        ) : null}
        <FormActions>
          <Button type="submit" isPending={isSaving} isDisabled={!changed && !isSaving}>
            {t('settings.profile.save')}
          </Button>
        </FormActions>
      </Form>
    </Card>
  );
}
