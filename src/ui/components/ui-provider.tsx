import type { ReactNode } from 'react';
import { RouterProvider } from 'react-aria-components';
import { UiLocaleProvider } from './locale-provider';
import { useThemeClass, type ThemeName } from './theme-class';

export type { ThemeName } from './theme-class';

export interface AriaProvidersProps {
  children: ReactNode;
  /** Client-side navigation for every RAC `Link`/`LinkButton`/menu item with `href` (e.g. wouter's `navigate`). */
  navigate?: (path: string) => void;
  /** Turns an app path into the real href (e.g. prefixes the `/{tenant}` base). */
  useHref?: (href: string) => string;
  /** Overrides the locale React Aria derives from i18next. */
  locale?: string;
}

export interface UiProviderProps extends AriaProvidersProps {
  /** Light is the default theme (docs/product.md, Preferences and global state). */
  theme?: ThemeName;
}

/**
 * What the React Aria primitives need, in one place (inside `I18nextProvider`): React Aria's locale
 * follows the active i18next language, and with `navigate` RAC links navigate client-side (no
 * reload) and keep modifier-click behaviour. The main layout renders it; the login route and the
 * blank pages use native controls and do without (no React Aria in the entry).
 */
export function AriaProviders({ children, navigate, useHref, locale }: AriaProvidersProps) {
  const content = <UiLocaleProvider locale={locale}>{children}</UiLocaleProvider>;
  if (!navigate) return content;
  return (
    <RouterProvider navigate={navigate} useHref={useHref}>
      {content}
    </RouterProvider>
  );
}

/** The theme class on `<html>` ({@link useThemeClass}) plus {@link AriaProviders}: for tests and stand-alone views. */
export function UiProvider({ theme = 'light', ...props }: UiProviderProps) {
  useThemeClass(theme);
  return <AriaProviders {...props} />;
}
