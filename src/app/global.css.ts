import { globalStyle } from '@vanilla-extract/css';
import { vars } from '../ui/theme.css';

/*
 * Global styles the primitives assume. Imported once by the app shell (side effect); the primitives
 * themselves never depend on it, so a component test renders the same without it.
 */
globalStyle('*, *::before, *::after', { boxSizing: 'border-box' });

globalStyle('html, body', {
  margin: 0,
  padding: 0,
  // Text zoom up to 200 % (WCAG 1.4.4) must not be blocked by a fixed root size.
  WebkitTextSizeAdjust: '100%',
});

globalStyle('body', {
  fontFamily: vars.font.family,
  fontSize: vars.font.size.md,
  lineHeight: vars.font.lineHeight.normal,
  color: vars.color.text,
  backgroundColor: vars.color.background,
  // Long words (emails, CNPJs, tenant names) wrap instead of widening the page at 390 px.
  overflowWrap: 'anywhere',
});

globalStyle('button, input, select, textarea', { font: 'inherit', color: 'inherit' });

globalStyle('img, svg', { display: 'block', maxWidth: '100%' });

// Users who ask for less motion get none: spinners slow to a still state, transitions vanish.
globalStyle('*', {
  '@media': {
    '(prefers-reduced-motion: reduce)': {
      animationDuration: '0.01ms !important',
      animationIterationCount: '1 !important',
      transitionDuration: '0.01ms !important',
    },
  },
});

// React Aria's press handling wants this rule (it would inject it as an inline <style>, which the CSP
// forbids; index.html claims its element id so it does not try): no double-tap-zoom delay on taps.
globalStyle('[data-react-aria-pressable]', { touchAction: 'pan-x pan-y pinch-zoom' });
