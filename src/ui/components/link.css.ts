import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { nativeFocusRingSelectors } from './focus.css';

/** The text link (link.tsx, a plain `<a>`): its states from pseudo-classes and ARIA attributes. */
export const link = style({
  color: vars.color.primary,
  // Underlined: links in text must not be told apart by colour alone (WCAG 1.4.1).
  textDecoration: 'underline',
  textUnderlineOffset: '0.15em',
  borderRadius: vars.radius.sm,
  cursor: 'pointer',
  outline: 'none',
  selectors: {
    ...nativeFocusRingSelectors,
    '&[aria-disabled="true"]': { color: vars.color.textMuted, cursor: 'not-allowed' },
    '&[aria-current]:not([aria-current="false"])': { fontWeight: vars.font.weight.bold, textDecoration: 'none' },
  },
  '@media': {
    // As the buttons' hover (native-controls.css.ts): only where a pointer hovers.
    '(hover: hover)': { selectors: { '&:hover:not([aria-disabled="true"])': { textDecorationThickness: '2px' } } },
  },
});
