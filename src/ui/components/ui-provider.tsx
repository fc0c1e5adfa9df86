import { useLayoutEffect, type ReactNode } from 'react';
import { RouterProvider } from 'react-aria-components';
import { darkTheme, lightTheme } from '../theme.css';
import { UiLocaleProvider } from './locale-provider';

export type ThemeName = 'light' | 'dark';

const THEME_CLASS: Record<ThemeName, string> = { light: lightTheme, dark: darkTheme };

export interface UiProviderProps {
  children: ReactNode;
  /** Light is the default theme (SPEC §9). */
  theme?: ThemeName;
  /** Client-side navigation for every RAC `Link`/`LinkButton`/menu item with `href` (e.g. wouter's `navigate`). */
  navigate?: (path: string) => void;
  /** Turns an app path into the real href (e.g. prefixes the `/{tenant}` base). */
  useHref?: (href: string) => string;
  /** Overrides the locale React Aria derives from i18next. */
  locale?: string;
}

/**
 * What the primitives need from the app root, in one place. Render it inside `I18nextProvider`.
 *
 * - The theme class goes on `<html>`, not on a wrapper: popovers, dialogs, tooltips and toasts
 *   render in portals under `<body>` and must see the same CSS variables. `color-scheme` follows,
 *   so native scrollbars and form controls match the theme.
 * - React Aria's locale follows the active i18next language.
 * - With `navigate`, RAC links navigate client-side (no reload) and keep modifier-click behaviour.
 */
export function UiProvider({ children, theme = 'light', navigate, useHref, locale }: UiProviderProps) {
  useLayoutEffect(() => {
    const root = document.documentElement;
    const className = THEME_CLASS[theme];
    root.classList.add(className);
    root.style.colorScheme = theme;
    return () => {
      root.classList.remove(className);
      root.style.removeProperty('color-scheme');
    };
  }, [theme]);
  const content = <UiLocaleProvider locale={locale}>{children}</UiLocaleProvider>;
  if (!navigate) return content;
  return (
    <RouterProvider navigate={navigate} useHref={useHref}>
      {content}
    </RouterProvider>
  );
}
