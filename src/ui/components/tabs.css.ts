import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { focusRing } from './focus.css';

export const tabs = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md, minWidth: 0 });

/** Scrolls sideways on narrow screens rather than wrapping tabs onto a second row. */
export const list = style({
  display: 'flex',
  gap: vars.space.xs,
  overflowX: 'auto',
  borderBottom: `1px solid ${vars.color.borderSubtle}`,
});

export const tab = style({
  padding: `${vars.space.sm} ${vars.space.md}`,
  // The selected tab gets a thick underline and bold text: not colour alone.
  borderBottom: '3px solid transparent',
  color: vars.color.textMuted,
  fontWeight: vars.font.weight.medium,
  whiteSpace: 'nowrap',
  cursor: 'pointer',
  outline: 'none',
  selectors: {
    '&[data-hovered]': { color: vars.color.text },
    '&[data-selected]': {
      color: vars.color.text,
      borderBottomColor: vars.color.primary,
      fontWeight: vars.font.weight.bold,
    },
    '&[data-focus-visible]': { ...focusRing, outlineOffset: '-2px' },
    '&[data-disabled]': { opacity: 0.55, cursor: 'not-allowed' },
  },
});

export const panel = style({
  outline: 'none',
  minWidth: 0,
  selectors: { '&[data-focus-visible]': focusRing },
});
