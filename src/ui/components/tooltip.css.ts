import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

/** Inverted colours (text on text-coloured background) keep ≥ 4.5:1 in both themes. */
export const tooltip = style({
  maxWidth: '18rem',
  padding: `${vars.space.xs} ${vars.space.sm}`,
  borderRadius: vars.radius.sm,
  backgroundColor: vars.color.text,
  color: vars.color.background,
  fontSize: vars.font.size.sm,
  boxShadow: vars.shadow.md,
  zIndex: vars.zIndex.popover,
  pointerEvents: 'none',
});
