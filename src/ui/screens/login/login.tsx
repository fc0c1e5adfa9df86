import { Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import {
  selectAwaitingCode,
  selectEnrolment,
  selectEndedNotice,
  selectIsAuthenticated,
  selectIsBusy,
  selectLoginError,
  selectNotice,
  selectRecoveryCodes,
  selectRedirectTo,
} from '../../../machines/session/session-selectors';
import { safeRedirectTarget } from '../../../domain/route-access';
import { Form, FormActions } from '../../components/form';
import { Button } from '../../components/button';

import { PasswordField, TextField } from '../../components/text-field';
import { appToasts, showToast } from '../../components/toast-queue';
import { useHydrated } from '../../components/use-hydrated';
import { guardedLazy } from '../../components/preloadable';
import { ensureAppLocale } from '../../../i18n/runtime';
import { useServices, useSession } from '../../hooks/services-context';
import * as styles from './login.css';

// Enrolment at sign-in is rare: its QR code and recovery codes, with the /two-factor screen's messages
// (the complete locale), load only when a sign-in asks for them, off the login page's budget.
// The guard's core with this screen's own notice and button: lazyPart's error state (icons, its
// styles) would weigh on every login page for a part few sign-ins open.
const EnrolmentParts = guardedLazy(
  () => Promise.all([import('../../components/two-factor-enrolment'), ensureAppLocale()]).then(([parts]) => parts),
  (retry) => <EnrolmentPartError onRetry={retry} />,
);

/**
 * In place of the enrolment parts when their code did not arrive: announced, with a retry. Its words
 * are the login page's own (the core messages, src/i18n/runtime.ts): the complete ones come with the
 * very chunk that failed.
 */
function EnrolmentPartError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={styles.notice} role="alert">
      <p>{t('apiErrors.network')}</p>
      <Button variant="secondary" onPress={onRetry}>
        {t('pages.serverError.action')}
      </Button>
    </div>
  );
}

/**
 * `/login` (docs/product.md, Sessions): e-mail and password, then — when the account has two-factor sign-in —
 * the code. Messages come from the session machine; after success the user goes to `to` or home.
 * Native controls (no React Aria): this screen is the first paint of a signed-out visit.
 */
export default function LoginScreen() {
  const { t } = useTranslation();
  const { session } = useServices();
  const [, navigate] = useLocation();
  const to = new URLSearchParams(useSearch()).get('to');
  const authenticated = useSession(selectIsAuthenticated);
  const busy = useSession(selectIsBusy);
  const notice = useSession(selectNotice);
  const redirectTo = useSession(selectRedirectTo);
  const ended = useSession(selectEndedNotice);
  const twoFactor = useSession(selectAwaitingCode);
  const recoveryCodes = useSession(selectRecoveryCodes);

  // Signed in (just now, or already when the page opened): greet once, then leave for the target,
  // once the recovery codes of an enrolment at sign-in were seen.
  useEffect(() => {
    if (!authenticated || recoveryCodes) return;
    if (notice) {
      showToast(appToasts, { variant: 'success', title: t(notice.titleKey), description: t(notice.bodyKey) });
      session.send({ type: 'session.dismissNotice' });
    }
    navigate(redirectTo ?? safeRedirectTarget(to), { replace: true });
    if (redirectTo) session.send({ type: 'session.redirected' });
  }, [authenticated, navigate, notice, recoveryCodes, redirectTo, session, t, to]);

  if (authenticated && recoveryCodes)
    return (
      <section className={styles.card}>
        <Suspense fallback={t('common.loading')}>
          <EnrolmentParts
            codes={recoveryCodes}
            onDone={() => session.send({ type: 'session.recoveryCodesSeen' })}
            withHeading
            fullWidth
          />
        </Suspense>
      </section>
    );

  return (
    <section className={styles.card} aria-labelledby="login-title">
      <h1 id="login-title" className={styles.title}>
        {twoFactor ? t('auth.twoFactor.title') : t('auth.login.title')}
      </h1>
      {ended && !twoFactor ? (
        <p className={styles.notice} role="status">
          {t(ended)}
        </p>
      ) : null}
      {twoFactor ? <CodeStep busy={busy} /> : <CredentialsStep busy={busy} to={to} />}
    </section>
  );
}

function useErrorText(): string | null {
  const { t } = useTranslation();
  const error = useSession(selectLoginError);
  const retryAfter = useSession((s) => s.context.retryAfter);
  if (!error) return null;
  return t(error, { minutes: Math.max(1, Math.ceil((retryAfter ?? 60) / 60)) });
}

function CredentialsStep({ busy, to }: { busy: boolean; to: string | null }) {
  const { t } = useTranslation();
  const { session } = useServices();
  const error = useErrorText();
  // Uncontrolled: on the prerendered page (src/app/prerender.tsx) the fields take typing before the
  // script has run, and hydration keeps what was typed. Only the button waits for hydration: before
  // it nothing listens to the form, and with the default button disabled neither a click nor Enter
  // submits it (so nothing goes out as a GET). Once hydrated, the e-mail gets the focus `autoFocus`
  // gave nothing yet — unless the user has put it somewhere already.
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  const wasPrerendered = useRef(!hydrated);
  useEffect(() => {
    if (!hydrated || !wasPrerendered.current) return;
    wasPrerendered.current = false;
    const active = document.activeElement;
    if (active === null || active === document.body)
      form.current?.querySelector<HTMLInputElement>('input[name="email"]')?.focus();
  }, [hydrated]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const email = String(fields.get('email') ?? '');
    const password = String(fields.get('password') ?? '');
    const remember = fields.get('remember') !== null;
    session.send({ type: 'session.login', email: email.trim(), password, to, remember });
  };

  return (
    <Form ref={form} onSubmit={submit} formError={error} aria-labelledby="login-title">
      <TextField
        label={t('auth.login.email')}
        name="email"
        type="email"
        autoComplete="username"
        isRequired
        defaultValue={session.getSnapshot().context.credentials?.email ?? ''}
        autoFocus
      />
      <PasswordField label={t('auth.login.password')} name="password" autoComplete="current-password" isRequired />
      <label className={styles.remember}>
        <input type="checkbox" name="remember" defaultChecked={session.getSnapshot().context.credentials?.remember} />
        {t('auth.login.remember')}
      </label>
      <FormActions>
        <Button type="submit" isPending={busy} isDisabled={!hydrated} pendingLabel={t('shell.loading')} fullWidth>
          {t('auth.login.submit')}
        </Button>
      </FormActions>
    </Form>
  );
}

function CodeStep({ busy }: { busy: boolean }) {
  const { t } = useTranslation();
  const { session } = useServices();
  const error = useErrorText();
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
