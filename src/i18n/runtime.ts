import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { baseInitOptions, DEFAULT_LOCALE, isSupportedLocale, applyPortugalPluralRules, type Locale } from './options';
// Named imports, read property by property: the bundler keeps only these parts of pt-BR in the entry
// chunk. Everything else arrives with the main layout, which waits for the complete messages.
import { apiErrors, app, auth, common, languages, pages, routes, session, shell, ui } from './pt-BR.json';

/**
 * The app's i18next. The entry chunk carries pt-BR's "core" messages only: what the blank layout's
 * routes (login, two-factor step and "Esqueci minha senha", the 500 content), the session's notices, the toasts
 * and the page fallback say. A locale's complete messages are a chunk of their own (the `?full` query
 * makes pt-BR's a separate module from the core part), loaded before the main layout renders and when
 * the user picks another language.
 */
const CORE_PT_BR = {
  // The login page's own "no network" notice (a part of it that did not load); the other API errors are
  // said by screens, which come with the complete messages.
  apiErrors: { network: apiErrors.network },
  app,
  // The new-password step and the reset-password page load the complete messages with their code.
  auth: {
    login: auth.login,
    // The code step loads the complete messages with its code; its title and the expired enrolment
    // (said on the e-mail and password form) stay.
    twoFactor: { title: auth.twoFactor.title, enrolmentExpired: auth.twoFactor.enrolmentExpired },
    forgot: { link: auth.forgot.link, disabled: auth.forgot.disabled },
    reset: { doneTitle: auth.reset.doneTitle, doneBody: auth.reset.doneBody },
  },
  languages,
  // The 500 content is in the entry (the error boundary); the other pages load the complete messages.
  pages: { serverError: pages.serverError },
  session,
  common: { loading: common.loading },
  // Document titles of the blank layout's routes (the main layout's arrive with it).
  routes: {
    login: routes.login,
    'reset-password': routes['reset-password'],
    comingsoon: routes.comingsoon,
    'error-404': routes['error-404'],
    'error-500': routes['error-500'],
    'not-authorized': routes['not-authorized'],
  },
  shell: { loading: shell.loading, toggleTheme: shell.toggleTheme, language: shell.language },
  ui: { password: ui.password, field: ui.field, toast: ui.toast },
};

// Messages, not code: the main layout awaits them inside its lazyWithTimeout (src/app/screens-registry.ts),
// and a failed load elsewhere leaves the current language in place.
/* eslint-disable no-restricted-syntax */
const FULL: Record<Locale, () => Promise<{ default: Record<string, unknown> }>> = {
  'pt-BR': () => import('./pt-BR.json?full'),
  pt: () => import('./pt.json'),
  en: () => import('./en.json'),
};
/* eslint-enable no-restricted-syntax */

/** Instances built here start partial; tests build complete ones (setup.ts) and never wait. */
const partial = new WeakMap<i18n, Map<Locale, Promise<void>>>();
let appInstance: i18n | undefined;

/** Loads `lng`'s complete messages into `instance` once (a no-op for complete instances). */
export function ensureLocale(instance: i18n, lng: string): Promise<void> {
  const loads = partial.get(instance);
  if (!loads || !isSupportedLocale(lng)) return Promise.resolve();
  let load = loads.get(lng);
  if (!load) {
    load = FULL[lng]().then(({ default: messages }) => {
      instance.addResourceBundle(lng, 'translation', messages, true, true);
    });
    // A failed chunk may be retried later (e.g. after the network returns).
    load.catch(() => loads.delete(lng));
    loads.set(lng, load);
  }
  return load;
}

/** The app instance's current language, complete (the main layout waits for it). */
export function ensureAppLocale(): Promise<void> {
  return appInstance ? ensureLocale(appInstance, appInstance.language) : Promise.resolve();
}

/** The app instance, speaking `lng` once its messages are in (at once for pt-BR). */
export async function createRuntimeI18n(lng: string = DEFAULT_LOCALE): Promise<i18n> {
  const instance = i18next.createInstance();
  partial.set(instance, new Map());
  appInstance = instance;
  // A copy: completing the locale deep-merges into this object, and the core must stay the core.
  void instance.use(initReactI18next).init({
    ...baseInitOptions(),
    resources: { [DEFAULT_LOCALE]: { translation: structuredClone(CORE_PT_BR) } },
    lng: DEFAULT_LOCALE,
  });
  applyPortugalPluralRules(instance);
  if (lng !== DEFAULT_LOCALE) {
    // A locale chunk that fails to load leaves the panel in pt-BR rather than blank.
    await ensureLocale(instance, lng).then(
      () => instance.changeLanguage(lng),
      (error: unknown) => console.error(`locale ${lng} failed to load`, error),
    );
  }
  return instance;
}
