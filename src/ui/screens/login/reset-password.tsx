import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { resetPasswordMachine, tokenFromFragment } from '../../../machines/password-reset/reset-password.machine';
import { Button } from '../../components/button';
import { Form, FormActions } from '../../components/form';
import { useServices } from '../../hooks/services-context';
import { NEW_PASSWORD_MESSAGES, NewPasswordFields } from './new-password-fields';
import * as styles from './login.css';

/**
 * `/reset-password` (docs/support-desk.md, Forgot password): the page a reset link opens. The token is
 * in the address's fragment (`#token=…`), which reaches neither the server's logs nor referrers; it is
 * read once and taken out of the address, so it stays in neither the history nor a shared screenshot.
 * The new password twice, then the login page with a notice; a dead link says to ask for a new one.
 */
export default function ResetPasswordScreen() {
  const [token, setToken] = useState(() =>
    typeof window === 'undefined' ? '' : tokenFromFragment(window.location.hash),
  );
  useEffect(() => {
    // A newer link opened in the same tab changes only the fragment, which reloads nothing: the page
    // takes its token and starts over (a fresh form, keyed by the token), then clears the address again.
    const take = () => {
      const next = tokenFromFragment(window.location.hash);
      if (next) setToken(next);
      if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
    };
    take();
    window.addEventListener('hashchange', take);
    return () => window.removeEventListener('hashchange', take);
  }, []);
  return <ResetPasswordForm key={token} token={token} />;
}

function ResetPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const { clients } = useServices();
  const [, navigate] = useLocation();
  const reset = useActorRef(resetPasswordMachine, { input: { rest: clients.rest, token } });
  const state = useSelector(reset, (s) => s);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');

  useEffect(() => {
    if (state.matches('done')) navigate('/login?reset=done', { replace: true });
  }, [navigate, state]);

  const deadLink = state.matches('deadLink') || state.matches('noToken');
  const problem = state.context.problem;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    reset.send({ type: 'reset.submit', password, confirmation });
  };

  return (
    <section className={styles.card} aria-labelledby="reset-title">
      <h1 id="reset-title" className={styles.title}>
        {t('auth.reset.title')}
      </h1>
      {deadLink ? (
        <div className={styles.steps}>
          <p className={styles.notice} role="alert">
            {t(state.matches('noToken') ? 'auth.reset.noToken' : 'auth.reset.invalidLink')}
          </p>
          <Button fullWidth onPress={() => navigate('/login')}>
            {t('auth.reset.backToLogin')}
          </Button>
        </div>
      ) : (
        <Form
          onSubmit={submit}
          formError={
            problem ? t(NEW_PASSWORD_MESSAGES[problem]) : state.matches('failed') ? t('auth.reset.failed') : null
          }
          aria-labelledby="reset-title"
        >
          <p className={styles.hint}>{t('auth.reset.hint')}</p>
          <NewPasswordFields
            password={password}
            confirmation={confirmation}
            onPassword={(value) => {
              setPassword(value);
              reset.send({ type: 'reset.edit' });
            }}
            onConfirmation={(value) => {
              setConfirmation(value);
              reset.send({ type: 'reset.edit' });
            }}
            problem={problem}
            labels={{ password: 'auth.reset.newPassword', confirmation: 'auth.reset.confirm' }}
          />
          <FormActions>
            <Button type="submit" isPending={state.hasTag('busy')} pendingLabel={t('shell.loading')} fullWidth>
              {t('auth.reset.submit')}
            </Button>
            <Button variant="ghost" fullWidth onPress={() => navigate('/login')} isDisabled={state.hasTag('busy')}>
              {t('auth.reset.backToLogin')}
            </Button>
          </FormActions>
        </Form>
      )}
    </section>
  );
}
