import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { newPasswordProblem, type NewPasswordProblem } from '../../../domain/new-password';
import { selectTemporaryPassword } from '../../../machines/session/session-selectors';
import { Button } from '../../components/button';
import { Form, FormActions } from '../../components/form';
import { useServices, useSession } from '../../hooks/services-context';
import { useLoginErrorText } from './login-error';
import { NEW_PASSWORD_MESSAGES, NewPasswordFields } from './new-password-fields';
import * as styles from './login.css';

/** The password was right but temporary: a new one, twice, then the same sign-in goes on. */
export default function NewPasswordStep({ busy }: { busy: boolean }) {
  const { t } = useTranslation();
  const { session } = useServices();
  const serverError = useLoginErrorText();
  const temporary = useSession(selectTemporaryPassword);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problem, setProblem] = useState<NewPasswordProblem | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = newPasswordProblem(password, confirmation, temporary ?? undefined);
    setProblem(found);
    if (found) return;
    session.send({ type: 'session.changePassword', newPassword: password });
  };

  return (
    <Form
      onSubmit={submit}
      formError={problem ? t(NEW_PASSWORD_MESSAGES[problem]) : serverError}
      aria-labelledby="login-title"
    >
      <p className={styles.hint}>{t('auth.passwordChange.hint')}</p>
      <NewPasswordFields
        password={password}
        confirmation={confirmation}
        onPassword={(value) => {
          setPassword(value);
          setProblem(null);
        }}
        onConfirmation={(value) => {
          setConfirmation(value);
          setProblem(null);
        }}
        problem={problem}
        labels={{ password: 'auth.passwordChange.newPassword', confirmation: 'auth.passwordChange.confirm' }}
      />
      <FormActions>
        <Button type="submit" isPending={busy} pendingLabel={t('shell.loading')} fullWidth>
          {t('auth.passwordChange.submit')}
        </Button>
        <Button
          variant="ghost"
          fullWidth
          onPress={() => session.send({ type: 'session.cancelPasswordChange' })}
          isDisabled={busy}
        >
          {t('auth.passwordChange.back')}
        </Button>
      </FormActions>
    </Form>
  );
}
