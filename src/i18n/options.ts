import type { i18n, InitOptions } from 'i18next';

/** Locales the panel ships, in menu order. `pt-BR` is the source of truth for keys. */
export const SUPPORTED_LOCALES = ['pt-BR', 'pt', 'en'] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'pt-BR';

export function isSupportedLocale(value: string): value is Locale {
  return (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

/**
 * Init options shared by the app and by tests. A function, not a constant: i18next keeps (and may
 * extend) the objects it is given.
 */
export function baseInitOptions(): InitOptions {
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

/** The part of i18next's plural resolver read here: the rule of a language code. */
interface PluralRuleSource {
  getRule(code: string, options?: object): Intl.PluralRules | undefined;
}

/**
 * Counts take their plural form from Intl.PluralRules (`_one`/`_other` keys read with `count`).
 * The panel's `pt` is European Portuguese (languages.pt), but Intl's `pt` is Brazil's rules, where
 * 0 is "one"; Portugal's (`pt-PT`) make 0 "other" ("0 registos"). Call once, after `init`.
 */
export function applyPortugalPluralRules(instance: i18n): void {
  const resolver = instance.services.pluralResolver as PluralRuleSource;
  const getRule = resolver.getRule.bind(resolver);
  resolver.getRule = (code, options) => getRule(code === 'pt' ? 'pt-PT' : code, options);
}
