import i18next, { type i18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';
import { baseInitOptions, DEFAULT_LOCALE, applyPortugalPluralRules } from './options';
import pt from './pt.json';
import ptBR from './pt-BR.json';

export { DEFAULT_LOCALE, isSupportedLocale, SUPPORTED_LOCALES, type Locale } from './options';

/** Every locale in memory: what tests use. The app loads only the active one (runtime.ts). */
export const bundledResources = {
  'pt-BR': { translation: ptBR },
  pt: { translation: pt },
  en: { translation: en },
} as const satisfies Resource;

export interface CreateI18nOptions {
  /** Replace the bundled resources (tests exercise the fallback chain with this). */
  resources?: Resource;
}

/**
 * Builds a fresh, initialised i18next instance wired to react-i18next, with every locale loaded.
 * Each call returns an independent instance, so tests never share language state.
 */
export function createI18n(lng: string = DEFAULT_LOCALE, options: CreateI18nOptions = {}): i18n {
  const instance = i18next.createInstance();
  void instance
    .use(initReactI18next)
    .init({ ...baseInitOptions(), resources: options.resources ?? bundledResources, lng });
  applyPortugalPluralRules(instance);
  return instance;
}
