import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormFeedback } from '../../../../machines/account/user-settings.machine';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { Form, FormActions } from '../../../components/form';
import { PasswordField } from '../../../components/text-field';
import { PasswordStrengthMeter } from '../../../components/password-strength-meter';
import { useFeedbackText } from '../../../hooks/use-feedback-text';
import * as styles from './user-settings.css';

export interface PasswordCardProps {
  isChanging: boolean;
  feedback: FormFeedback;
  onChange: (password: string, confirmation: string, currentPassword: string) => void;
}

/**
 * The current password, then a new one twice with the strength meter (fraca / média / forte;
 * docs/product.md, Passwords). The current one proves the change is the user's own (docs/security.md).
 */
export function PasswordCard({ isChanging, feedback, onChange }: PasswordCardProps) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const { validationErrors, formError } = useFeedbackText(feedback, 'settings.failure');
  return (
    <Card title={t('settings.password.heading')}>
      <p className={styles.muted}>{t('settings.password.intro')}</p>
      <Form
        className={styles.form}
        validationBehavior="aria"
        validationErrors={validationErrors}
        formError={formError}
        onSubmit={(event) => {
          event.preventDefault();
          onChange(password, confirmation, current);
        }}
      >
        <PasswordField
          label={t('settings.password.current')}
          name="currentPassword"
          value={current}
          onChange={setCurrent}
          autoComplete="current-password"
        />
        <PasswordField
          label={t('settings.password.new')}
          description={t('settings.password.help')}
          name="password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
        />
        <PasswordStrengthMeter password={password} />
        <PasswordField
          label={t('settings.password.confirm')}
          name="confirmation"
          value={confirmation}
          onChange={setConfirmation}
          autoComplete="new-password"
        />
        <FormActions>
          <Button type="submit" isPending={isChanging}>
            {t('settings.password.submit')}
          </Button>
        </FormActions>
      </Form>
    </Card>
  );
}
