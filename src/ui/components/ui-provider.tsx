import type { ReactNode } from 'react';
import { UiLocaleProvider } from './locale-provider';
import { useThemeClass, type ThemeName } from './theme-class';

export type { ThemeName } from './theme-class';

export interface AriaProvidersProps {
  children: ReactNode;
  /** Overrides the locale React Aria derives from i18next. */
  locale?: string;
}

export interface UiProviderProps extends AriaProvidersProps {
  /** Light is the default theme (docs/product.md, Preferences and global state). */
  theme?: ThemeName;
}

/**
 * What the React Aria primitives need, in one place (inside `I18nextProvider`): React Aria's locale
 * follows the active i18next language. Links are wouter's (link.tsx, menu.tsx), so no React Aria
 * router. The main layout renders it; the login route and the blank pages use native controls and
 * do without (no React Aria in the entry).
 */
export function AriaProviders({ children, locale }: AriaProvidersProps) {
  return <UiLocaleProvider locale={locale}>{children}</UiLocaleProvider>;
}

/** The theme class on `<html>` ({@link useThemeClass}) plus {@link AriaProviders}: for tests and stand-alone views. */
export function UiProvider({ theme = 'light', ...props }: UiProviderProps) {
  useThemeClass(theme);
  return <AriaProviders {...props} />;
}
