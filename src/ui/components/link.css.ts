import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { focusRingSelectors } from './focus.css';

export const link = style({
  color: vars.color.primary,
  // Underlined: links in text must not be told apart by colour alone (WCAG 1.4.1).
  textDecoration: 'underline',
  textUnderlineOffset: '0.15em',
  borderRadius: vars.radius.sm,
  cursor: 'pointer',
  outline: 'none',
  selectors: {
    ...focusRingSelectors,
    '&[data-hovered]': { textDecorationThickness: '2px' },
    '&[data-disabled]': { color: vars.color.textMuted, cursor: 'not-allowed' },
    '&[data-current]': { fontWeight: vars.font.weight.bold, textDecoration: 'none' },
  },
});
