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
