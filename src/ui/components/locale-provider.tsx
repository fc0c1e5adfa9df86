import type { ReactNode } from 'react';
import { I18nProvider } from 'react-aria-components/I18nProvider';
import { useTranslation } from 'react-i18next';

/**
 * i18next language → BCP 47 locale for React Aria, which formats dates, numbers and its own
 * built-in labels by locale. Plain `pt` is European Portuguese in this app (docs/product.md, Internationalisation).
 */
const ARIA_LOCALES: Readonly<Record<string, string>> = { 'pt-BR': 'pt-BR', pt: 'pt-PT', en: 'en-US' };

/** Maps an i18next language code to the locale React Aria should use; unknown ones fall back to pt-BR. */
export function toAriaLocale(language: string | undefined): string {
  return (language && ARIA_LOCALES[language]) || 'pt-BR';
}

export interface UiLocaleProviderProps {
  children: ReactNode;
  /** Overrides the active i18next language (e.g. a screen that must show pt-BR dates regardless). */
  locale?: string;
}

/**
 * Puts React Aria's `I18nProvider` under the active i18next language, so date pickers, number
 * fields and RAC's own strings follow the language switch. The shell renders it once inside its
 * `I18nextProvider`; screens never need to.
 */
export function UiLocaleProvider({ children, locale }: UiLocaleProviderProps) {
  const { i18n } = useTranslation();
  return (
    <I18nProvider locale={locale ?? toAriaLocale(i18n.resolvedLanguage ?? i18n.language)}>{children}</I18nProvider>
  );
}
