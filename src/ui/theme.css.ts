import { createTheme, createThemeContract } from '@vanilla-extract/css';

/**
 * Design tokens. Components read `vars.*`; the shell puts `lightTheme` or `darkTheme` on its root
 * (light is the default theme, SPEC §9).
 */
export const vars = createThemeContract({
  color: {
    background: null,
    surface: null,
    text: null,
    textMuted: null,
    primary: null,
    primaryText: null,
    border: null,
    focus: null,
    danger: null,
    success: null,
    warning: null,
  },
  space: { xs: null, sm: null, md: null, lg: null, xl: null },
  radius: { sm: null, md: null, lg: null, pill: null },
  font: {
    family: null,
    size: { sm: null, md: null, lg: null, xl: null, xxl: null },
  },
});

const shared = {
  space: { xs: '0.25rem', sm: '0.5rem', md: '1rem', lg: '1.5rem', xl: '2.5rem' },
  radius: { sm: '4px', md: '8px', lg: '12px', pill: '999px' },
  font: {
    family:
      'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    size: { sm: '0.875rem', md: '1rem', lg: '1.25rem', xl: '1.5rem', xxl: '2rem' },
  },
};

/*
 * WCAG 2.x contrast ratios (relative luminance, computed with the sRGB formula):
 *   text/background 14.76   text/surface 13.62
 *   textMuted/background 6.46   textMuted/surface 5.96
 *   primaryText/primary 6.70   primary/background 6.70 (links, outlines)
 *   danger/background 6.47   success/background 5.02   warning/background 5.58
 *   border/background 3.66   border/surface 3.38   focus/background 6.70 (non-text, ≥ 3 needed)
 */
export const lightTheme = createTheme(vars, {
  color: {
    background: '#ffffff',
    surface: '#f4f6f8',
    text: '#1f2933',
    textMuted: '#52606d',
    primary: '#1d4ed8',
    primaryText: '#ffffff',
    border: '#7b8794',
    focus: '#1d4ed8',
    danger: '#b91c1c',
    success: '#15803d',
    warning: '#a35200',
  },
  ...shared,
});

/*
 * WCAG 2.x contrast ratios:
 *   text/background 14.48   text/surface 11.87
 *   textMuted/background 8.21   textMuted/surface 6.73
 *   primaryText/primary 9.90   primary/background 9.90
 *   danger/background 9.41   success/background 12.71   warning/background 12.38
 *   border/background 3.75   border/surface 3.07   focus/background 9.90
 */
export const darkTheme = createTheme(vars, {
  color: {
    background: '#0f172a',
    surface: '#1e293b',
    text: '#e2e8f0',
    textMuted: '#a3b1c6',
    primary: '#93c5fd',
    primaryText: '#0f172a',
    border: '#64748b',
    focus: '#93c5fd',
    danger: '#fca5a5',
    success: '#86efac',
    warning: '#fcd34d',
  },
  ...shared,
});
