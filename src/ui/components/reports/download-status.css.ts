import { style } from '@vanilla-extract/css';
import { vars } from '../../theme.css';

export const actions = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  minWidth: 0,
});

export const count = style({
  margin: 0,
  color: vars.color.textMuted,
  fontSize: vars.font.size.sm,
  fontVariantNumeric: 'tabular-nums',
});

export const download = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  padding: vars.space.md,
  border: `1px solid ${vars.color.borderSubtle}`,
  borderRadius: vars.radius.md,
  minWidth: 0,
});

export const error = style({ margin: 0, color: vars.color.danger, fontSize: vars.font.size.sm });
