import { Suspense, useCallback, useEffect, useId, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import type { ForgotPasswordSnapshot } from '../../../machines/password-reset/forgot-password.machine';
import { useLoginErrorText } from './login-error';
import type { ForgotActor } from './forgot-step';
import {
  selectAwaitingCode,
  selectAwaitingNewPassword,
  selectEndedNotice,
  selectIsAuthenticated,
  selectIsBusy,
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
import { guardedLazy, importWithTimeout } from '../../components/preloadable';
import { ensureAppLocale } from '../../../i18n/runtime';
import { useServices, useSession } from '../../hooks/services-context';
import { EnrolmentPartError, EnrolmentParts } from './enrolment-parts';
import * as styles from './login.css';

// A temporary password and a forgotten one are rare too: their steps (and, for the new password, the
// strength meter and the complete messages) load when asked for.
const NewPasswordStep = guardedLazy(
  () => Promise.all([import('./new-password-step'), ensureAppLocale()]).then(([step]) => step),
  (retry) => <EnrolmentPartError onRetry={retry} />,
);
const ForgotStep = guardedLazy(
  () => Promise.all([import('./forgot-step'), ensureAppLocale()]).then(([step]) => step),
  (retry) => <EnrolmentPartError onRetry={retry} />,
);
// The code step follows a server's answer that asks for it (two-factor sign-in): its form, with the
// complete messages (which the page warms while idle, signed-in-preloader.tsx), is fetched as the
// credentials go out.
const CodeStep = guardedLazy(
  () => Promise.all([import('./code-step'), ensureAppLocale()]).then(([step]) => step),
  (retry) => <EnrolmentPartError onRetry={retry} />,
);

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
  const newPassword = useSession(selectAwaitingNewPassword);
  const recoveryCodes = useSession(selectRecoveryCodes);
  const resetDone = new URLSearchParams(useSearch()).get('reset') === 'done';
  const { forgot, ensureForgot } = useForgotPassword();
  const forgotOpen = useForgotState(forgot, selectForgotFormShown, false);

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
        {newPassword
          ? t('auth.passwordChange.title')
          : twoFactor
            ? t('auth.twoFactor.title')
            : forgotOpen
              ? t('auth.forgot.title')
              : t('auth.login.title')}
      </h1>
      {ended && !twoFactor && !newPassword && !forgotOpen ? (
        <p className={styles.notice} role="status">
          {t(ended)}
        </p>
      ) : null}
      {resetDone && !ended && !twoFactor && !newPassword && !forgotOpen ? (
        <p className={styles.success} role="status">
          <strong>{t('auth.reset.doneTitle')}</strong> {t('auth.reset.doneBody')}
        </p>
      ) : null}
      {newPassword ? (
        <Suspense fallback={t('common.loading')}>
          <NewPasswordStep busy={busy} />
        </Suspense>
      ) : twoFactor ? (
        <Suspense fallback={t('common.loading')}>
          <CodeStep busy={busy} />
        </Suspense>
      ) : forgotOpen ? (
        <Suspense fallback={t('common.loading')}>{forgot ? <ForgotStep forgot={forgot} /> : null}</Suspense>
      ) : (
        <CredentialsStep busy={busy} to={to} forgot={forgot} ensureForgot={ensureForgot} />
      )}
    </section>
  );
}

/** The forgot-password form (or its confirmation) takes the card's place. */
const selectForgotFormShown = (snapshot: ForgotPasswordSnapshot) =>
  snapshot.matches('open') || snapshot.matches('sending') || snapshot.matches('sent');

/**
 * "Esqueci minha senha" (./forgot-password.ts): its machine and the status it asks for load once the
 * page is up, off the login page's first download. `ensureForgot` starts it at once when the link is
 * used before that. Not at all when the page says the server cannot send reset links (the link is
 * disabled from the first paint, src/app/app-services.ts `passwordResetMail`).
 */
function useForgotPassword(): { forgot: ForgotActor | null; ensureForgot: () => Promise<ForgotActor> } {
  const { clients, settings } = useServices();
  const noMail = settings.passwordResetMail === false;
  const [forgot, setForgot] = useState<ForgotActor | null>(null);
  const started = useRef<Promise<ForgotActor> | null>(null);
  const ensureForgot = useCallback(() => {
    started.current ??= importWithTimeout(() => import('./forgot-password')).then(
      ({ startForgotPassword }) => {
        const actor = startForgotPassword(clients.rest);
        setForgot(actor);
        return actor;
      },
      (error: unknown) => {
        // A chunk that did not arrive: the next use of the link tries again.
        started.current = null;
        throw error;
      },
    );
    return started.current;
  }, [clients.rest]);
  useEffect(() => {
    if (noMail) return;
    const timer = setTimeout(() => void ensureForgot().catch(() => undefined), 0);
    return () => {
      clearTimeout(timer);
      void started.current?.then((actor) => actor.stop()).catch(() => undefined);
      started.current = null;
    };
  }, [ensureForgot, noMail]);
  return { forgot, ensureForgot };
}

/** Selects from the forgot-password actor, or `fallback` while it is not started. */
function useForgotState<T>(actor: ForgotActor | null, select: (snapshot: ForgotPasswordSnapshot) => T, fallback: T): T {
  return useSyncExternalStore(
    (changed) => {
      if (!actor) return () => undefined;
      const subscription = actor.subscribe(changed);
      return () => subscription.unsubscribe();
    },
    () => (actor ? select(actor.getSnapshot()) : fallback),
    () => fallback,
  );
}

function CredentialsStep({
  busy,
  to,
  forgot,
  ensureForgot,
}: {
  busy: boolean;
  to: string | null;
  forgot: ForgotActor | null;
  ensureForgot: () => Promise<ForgotActor>;
}) {
  const { t } = useTranslation();
  const { session } = useServices();
  const error = useLoginErrorText();
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
    // The server may ask for a code: its step is in by the time the answer is.
    void CodeStep.preload().catch(() => undefined);
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
      <ForgotLink forgot={forgot} ensureForgot={ensureForgot} />
    </Form>
  );
}

/**
 * "Esqueci minha senha": opens the request form; disabled, with the reason, when the server cannot send
 * mail (docs/support-desk.md, Forgot password).
 */
function ForgotLink({
  forgot,
  ensureForgot,
}: {
  forgot: ForgotActor | null;
  ensureForgot: () => Promise<ForgotActor>;
}) {
  const { t } = useTranslation();
  const { settings } = useServices();
  const disabled = useForgotState(forgot, (s) => s.matches('disabled'), false) || settings.passwordResetMail === false;
  const hintId = useId();
  // Inert until hydrated on the prerendered page, as every control there: nothing would listen to it.
  const hydrated = useHydrated();
  if (disabled)
    return (
      <div className={styles.forgot}>
        <button type="button" className={styles.linkButton} disabled aria-describedby={hintId}>
          {t('auth.forgot.link')}
        </button>
        <p id={hintId} className={styles.hint}>
          {t('auth.forgot.disabled')}
        </p>
      </div>
    );
  return (
    <div className={styles.forgot}>
      <button
        type="button"
        className={styles.linkButton}
        disabled={!hydrated}
        onClick={() => void ensureForgot().then((actor) => actor.send({ type: 'forgot.open' }))}
      >
        {t('auth.forgot.link')}
      </button>
    </div>
  );
}
