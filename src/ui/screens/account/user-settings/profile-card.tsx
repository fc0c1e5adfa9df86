import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../../machines/session/session-storage';
import type { FormFeedback } from '../../../../machines/account/user-settings.machine';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { Form, FormActions } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import { useFormFeedback } from './feedback';
import * as styles from './user-settings.css';

export interface ProfileCardProps {
  user: User;
  /** The server lets only holders of route permission `users` change names and emails, even their own. */
  isSaving: boolean;
  feedback: FormFeedback;
  onSave: (name: string, email: string) => void;
}

/** Own name and email, with the username and role for reference. */
export function ProfileCard({ user, isSaving, feedback, onSave }: ProfileCardProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const { validationErrors, formError } = useFormFeedback(feedback);
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
          onSave(name, email);
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
        <FormActions>
          <Button type="submit" isPending={isSaving} isDisabled={!changed && !isSaving}>
            {t('settings.profile.save')}
          </Button>
        </FormActions>
      </Form>
    </Card>
  );
}
