import { Suspense, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { selectEnrolment } from '../../../machines/session/session-selectors';
import { Button } from '../../components/button';
import { Form, FormActions } from '../../components/form';
import { TextField } from '../../components/text-field';
import { useServices, useSession } from '../../hooks/services-context';
import { EnrolmentParts } from './enrolment-parts';
import { useLoginErrorText } from './login-error';
import * as styles from './login.css';

/** The second factor (a TOTP or recovery code), or the enrolment a sign-in requires, after the server asked for it. */
export default function CodeStep({ busy }: { busy: boolean }) {
  const { t } = useTranslation();
  const { session } = useServices();
  const error = useLoginErrorText();
  const [code, setCode] = useState('');
  const enrolment = useSession(selectEnrolment);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    session.send({ type: 'session.verifyCode', otp: code });
    setCode('');
  };

  return (
    <Form onSubmit={submit} formError={error} aria-labelledby="login-title">
      {enrolment ? (
        <Suspense fallback={t('common.loading')}>
          <EnrolmentParts enrolment={enrolment} isRequired fullWidth />
        </Suspense>
      ) : (
        <p className={styles.hint}>{t('auth.twoFactor.hint')}</p>
      )}
      <TextField
        label={t('auth.twoFactor.code')}
        name="otp"
        autoComplete="one-time-code"
        inputMode="numeric"
        isRequired
        value={code}
        onChange={setCode}
        autoFocus
      />
      <FormActions>
        <Button type="submit" isPending={busy} pendingLabel={t('shell.loading')} fullWidth>
          {t('auth.twoFactor.submit')}
        </Button>
        <Button
          variant="ghost"
          fullWidth
          onPress={() => session.send({ type: 'session.cancelTwoFactor' })}
          isDisabled={busy}
        >
          {t('auth.twoFactor.back')}
        </Button>
      </FormActions>
    </Form>
  );
}
