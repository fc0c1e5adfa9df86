import en from './en.json';
import ptBR from './pt-BR.json';
import { createRuntimeI18n, ensureAppLocale, ensureLocale } from './runtime';

describe('runtime i18n (only what the current route needs)', () => {
  it('starts with pt-BR core messages only, and completes them on demand', async () => {
    const i18n = await createRuntimeI18n('pt-BR');
    expect(i18n.t('auth.login.failed')).toBe(ptBR.auth.login.failed);
    // Screen messages are not in the entry: without the full locale, the key itself comes back.
    expect(i18n.exists('home.greeting')).toBe(false);
    await ensureAppLocale();
    expect(i18n.t('home.greeting', { name: 'Ana' })).toBe(ptBR.home.greeting.replace('{{name}}', 'Ana'));
  });

  it('has in its core what the blank layout, the session notices and the toasts say, and no main-layout text', async () => {
    const i18n = await createRuntimeI18n('pt-BR');
    for (const key of [
      'routes.login',
      'routes.error-404',
      'pages.serverError.title',
      'pages.serverError.requestId',
      'shell.toggleTheme',
      'shell.language',
      'languages.en',
      'ui.password.show',
      'ui.toast.region',
      'session.ended.expired',
      'apiErrors.network',
      'auth.twoFactor.title',
      'common.loading',
    ] as const) {
      expect(i18n.t(key)).toBe(
        key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], ptBR),
      );
    }
    for (const key of [
      'routes.users',
      'shell.skipToContent',
      'menu.sections.users',
      // The 404, not-authorized and coming-soon pages load the complete messages (screens-registry.ts).
      'pages.notFound.title',
      'pages.notAuthorized.needsPermission',
      'ui.pagination.next',
      'password.strength.label',
      'common.save',
      // Screens say the other API errors; the login page only "no network".
      'apiErrors.conflict',
      // The two-factor code step loads them with its code.
      'auth.twoFactor.code',
    ])
      expect(i18n.exists(key)).toBe(false);
  });

  it('starts in a stored language by loading it first', async () => {
    const i18n = await createRuntimeI18n('en');
    expect(i18n.language).toBe('en');
    expect(i18n.t('home.greeting', { name: 'Ana' })).toBe(en.home.greeting.replace('{{name}}', 'Ana'));
  });

  it('loads a locale once however many times it is asked for', async () => {
    const i18n = await createRuntimeI18n('pt-BR');
    const first = ensureLocale(i18n, 'pt');
    expect(ensureLocale(i18n, 'pt')).toBe(first);
    await first;
    expect(i18n.hasResourceBundle('pt', 'translation')).toBe(true);
  });
});
