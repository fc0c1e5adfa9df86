import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { forgotPasswordMachine, MailLocale } from '../../../machines/password-reset/forgot-password.machine';
import { Button } from '../../components/button';
import { Form, FormActions } from '../../components/form';
import { TextField } from '../../components/text-field';
import { useServices } from '../../hooks/services-context';
import * as styles from './login.css';

/** The forgot-password flow's actor (src/machines/password-reset/forgot-password.machine.ts). */
export type ForgotActor = ActorRefFrom<typeof forgotPasswordMachine>;

const MAIL_LOCALES: readonly MailLocale[] = ['pt-BR', 'pt', 'en'];

/** The e-mail to send a link to; the answer is the same whatever it is. */
export default function ForgotStep({ forgot }: { forgot: ForgotActor }) {
  const { t, i18n } = useTranslation();
  const { session } = useServices();
  const state = useSelector(forgot, (s) => s);
  const sent = state.matches('sent');
  const busy = state.hasTag('busy');
  const error = state.matches({ open: 'throttled' })
    ? t('auth.forgot.throttled', { minutes: Math.max(1, Math.ceil((state.context.retryAfter ?? 60) / 60)) })
    : state.matches({ open: 'failed' })
      ? t('auth.forgot.failed')
      : null;
  const locale = MAIL_LOCALES.find((l) => l === i18n.language) ?? 'pt-BR';
  const back = () => forgot.send({ type: 'forgot.close' });

  if (sent)
    return (
      <div className={styles.steps}>
        <p className={styles.success} role="status">
          {t('auth.forgot.sent')}
        </p>
        <Button variant="secondary" fullWidth onPress={back} autoFocus>
          {t('auth.forgot.back')}
        </Button>
      </div>
    );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '');
    forgot.send({ type: 'forgot.submit', email, locale });
  };
  return (
    <Form onSubmit={submit} formError={error} aria-labelledby="login-title">
      <p className={styles.hint}>{t('auth.forgot.hint')}</p>
      <TextField
        label={t('auth.forgot.email')}
        name="email"
        type="email"
        autoComplete="username"
        isRequired
        defaultValue={state.context.email || (session.getSnapshot().context.credentials?.email ?? '')}
        autoFocus
      />
      <FormActions>
        <Button type="submit" isPending={busy} pendingLabel={t('shell.loading')} fullWidth>
          {t('auth.forgot.submit')}
        </Button>
        <Button variant="ghost" fullWidth onPress={back} isDisabled={busy}>
          {t('auth.forgot.back')}
        </Button>
      </FormActions>
    </Form>
  );
}
