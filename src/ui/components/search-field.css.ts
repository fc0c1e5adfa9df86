import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

export const icon = style({ flexShrink: 0, marginInlineStart: vars.space.sm, color: vars.color.textMuted });

/** Browsers draw their own clear "x" on type=search; ours is the accessible one. */
export const input = style({
  selectors: {
    '&::-webkit-search-cancel-button': { display: 'none' },
    '&::-webkit-search-decoration': { display: 'none' },
  },
});
