import i18next, { type i18n, type InitOptions, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';
import pt from './pt.json';
import ptBR from './pt-BR.json';

/** Locales the panel ships, in menu order. `pt-BR` is the source of truth for keys. */
export const SUPPORTED_LOCALES = ['pt-BR', 'pt', 'en'] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'pt-BR';

/** Bundled statically: a back-office this size gains nothing from lazy locale chunks. */
export const bundledResources = {
  'pt-BR': { translation: ptBR },
  pt: { translation: pt },
  en: { translation: en },
} as const satisfies Resource;

export function isSupportedLocale(value: string): value is Locale {
  return (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

/**
 * Init options shared by the app and by tests that build an instance over modified resources.
 * A function, not a constant: i18next keeps (and may extend) the objects it is given.
 */
function baseInitOptions(): InitOptions {
  return {
    supportedLngs: [...SUPPORTED_LOCALES],
    // pt-BR borrows from European Portuguese before English; anything else falls back to pt-BR.
    fallbackLng: { 'pt-BR': ['pt', 'en'], pt: ['en'], default: [DEFAULT_LOCALE] },
    // React escapes on render; escaping here would double-encode.
    interpolation: { escapeValue: false },
    returnNull: false,
    // Resources are in memory, so initialise synchronously and render translated text on first paint.
    initAsync: false,
  };
}

export interface CreateI18nOptions {
  /** Replace the bundled resources (tests exercise the fallback chain with this). */
  resources?: Resource;
}

/**
 * Builds a fresh, initialised i18next instance wired to react-i18next.
 * Each call returns an independent instance, so tests never share language state.
 */
export function createI18n(lng: string = DEFAULT_LOCALE, options: CreateI18nOptions = {}): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    ...baseInitOptions(),
    resources: options.resources ?? bundledResources,
    lng,
  });
  return instance;
}
