import { useLayoutEffect } from 'react';
import { darkTheme, lightTheme } from '../theme.css';

export type ThemeName = 'light' | 'dark';

const THEME_CLASS: Record<ThemeName, string> = { light: lightTheme, dark: darkTheme };

/**
 * Puts the theme class on `<html>`, not on a wrapper: popovers, dialogs, tooltips and toasts render
 * in portals under `<body>` and must see the same CSS variables. `color-scheme` follows, so native
 * scrollbars and form controls match the theme. No React Aria here: the router applies it on every
 * route, the login page included.
 */
export function useThemeClass(theme: ThemeName): void {
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
}
