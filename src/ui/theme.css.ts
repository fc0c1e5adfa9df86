import { createTheme, createThemeContract } from '@vanilla-extract/css';

/**
 * Design tokens. Components read `vars.*`; the shell puts `lightTheme` or `darkTheme` on its root
 * (light is the default theme). Every colour pair a component draws is checked for WCAG AA
 * contrast by `src/ui/components/theme-contrast.test.ts`, so a token change that breaks AA fails a test.
 */
export const vars = createThemeContract({
  color: {
    background: null,
    surface: null,
    /** Popovers, dialogs, menus, toasts: above the page. */
    surfaceRaised: null,
    /** Hovered rows and menu items. */
    surfaceHover: null,
    /** Selected rows, options and tabs. */
    selected: null,
    text: null,
    textMuted: null,
    primary: null,
    primaryHover: null,
    primaryText: null,
    /**
     * The primary button's fill, hover and label: a solid, saturated colour in both themes, so it
     * never reads as a disabled button (which has no fill: button.css.ts).
     */
    primaryFill: null,
    primaryFillHover: null,
    primaryFillText: null,
    /** Boundaries of controls (inputs, checkboxes): non-text, ≥ 3:1. */
    border: null,
    /** Decorative separators only (cards, table rules); never the only boundary of a control. */
    borderSubtle: null,
    focus: null,
    danger: null,
    dangerHover: null,
    dangerText: null,
    success: null,
    warning: null,
    info: null,
    /** Tinted backgrounds for status messages; body text on them uses `text`. */
    dangerSurface: null,
    successSurface: null,
    warningSurface: null,
    infoSurface: null,
    backdrop: null,
    skeleton: null,
  },
  space: { xxs: null, xs: null, sm: null, md: null, lg: null, xl: null },
  radius: { sm: null, md: null, lg: null, pill: null },
  font: {
    family: null,
    mono: null,
    size: { xs: null, sm: null, md: null, lg: null, xl: null, xxl: null },
    weight: { regular: null, medium: null, bold: null },
    lineHeight: { tight: null, normal: null },
  },
  /** Control heights, so buttons and inputs on one line align. */
  control: { sm: null, md: null, lg: null },
  shadow: { sm: null, md: null, lg: null },
  focusRing: { width: null, offset: null },
  zIndex: { sticky: null, overlay: null, modal: null, popover: null, toast: null },
  duration: { fast: null, normal: null },
});

const shared = {
  space: { xxs: '0.125rem', xs: '0.25rem', sm: '0.5rem', md: '1rem', lg: '1.5rem', xl: '2.5rem' },
  radius: { sm: '4px', md: '8px', lg: '12px', pill: '999px' },
  font: {
    family: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    mono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
    size: { xs: '0.75rem', sm: '0.875rem', md: '1rem', lg: '1.25rem', xl: '1.5rem', xxl: '2rem' },
    weight: { regular: '400', medium: '500', bold: '650' },
    lineHeight: { tight: '1.25', normal: '1.5' },
  },
  control: { sm: '2rem', md: '2.5rem', lg: '3rem' },
  // WCAG 2.4.13: a 2 px outline offset from the control stays visible on every background.
  focusRing: { width: '2px', offset: '2px' },
  // Toasts sit above modals (feedback of a dialog's action shows over it); popovers and tooltips
  // the user just opened sit above both, so a toast never hides the calendar being used.
  zIndex: { sticky: '10', overlay: '100', modal: '200', toast: '300', popover: '400' },
  duration: { fast: '120ms', normal: '200ms' },
};

/** Light palette; exported (plain strings) so the contrast test can check every pair. */
export const lightColors = {
  background: '#ffffff',
  surface: '#f4f6f8',
  surfaceRaised: '#ffffff',
  surfaceHover: '#e8edf2',
  selected: '#dbe7fd',
  text: '#1f2933',
  textMuted: '#52606d',
  primary: '#1d4ed8',
  primaryHover: '#1e40af',
  primaryText: '#ffffff',
  primaryFill: '#1d4ed8',
  primaryFillHover: '#1e40af',
  primaryFillText: '#ffffff',
  border: '#7b8794',
  borderSubtle: '#d9e0e7',
  focus: '#1d4ed8',
  danger: '#b91c1c',
  dangerHover: '#991b1b',
  dangerText: '#ffffff',
  success: '#166534',
  warning: '#a35200',
  info: '#0369a1',
  dangerSurface: '#fdecec',
  successSurface: '#e9f7ee',
  warningSurface: '#fdf3e4',
  infoSurface: '#e6f1f8',
  backdrop: 'rgba(15, 23, 42, 0.55)',
  skeleton: '#e2e8f0',
} as const;

/** Dark palette; same keys as {@link lightColors}. */
export const darkColors = {
  background: '#0f172a',
  surface: '#1e293b',
  surfaceRaised: '#1e293b',
  surfaceHover: '#334155',
  selected: '#1e3a5f',
  text: '#e2e8f0',
  textMuted: '#a3b1c6',
  primary: '#93c5fd',
  primaryHover: '#bfdbfe',
  primaryText: '#0f172a',
  // The pastel `primary` reads well as text on the dark page but, as a fill, looked like a disabled button.
  primaryFill: '#2563eb',
  primaryFillHover: '#1d4ed8',
  primaryFillText: '#ffffff',
  border: '#64748b',
  borderSubtle: '#334155',
  focus: '#93c5fd',
  danger: '#fca5a5',
  dangerHover: '#fecaca',
  dangerText: '#0f172a',
  success: '#86efac',
  warning: '#fcd34d',
  info: '#7dd3fc',
  dangerSurface: '#3f1d25',
  successSurface: '#12301f',
  warningSurface: '#3a2a0a',
  infoSurface: '#0c2a3e',
  backdrop: 'rgba(2, 6, 23, 0.7)',
  skeleton: '#334155',
} as const satisfies Record<keyof typeof lightColors, string>;

export const lightTheme = createTheme(vars, {
  color: lightColors,
  shadow: {
    sm: '0 1px 2px rgba(15, 23, 42, 0.08)',
    md: '0 4px 12px rgba(15, 23, 42, 0.12)',
    lg: '0 12px 32px rgba(15, 23, 42, 0.18)',
  },
  ...shared,
});

export const darkTheme = createTheme(vars, {
  color: darkColors,
  // Shadows barely show on dark backgrounds; raised surfaces also get a border where it matters.
  shadow: {
    sm: '0 1px 2px rgba(0, 0, 0, 0.4)',
    md: '0 4px 12px rgba(0, 0, 0, 0.5)',
    lg: '0 12px 32px rgba(0, 0, 0, 0.6)',
  },
  ...shared,
});
