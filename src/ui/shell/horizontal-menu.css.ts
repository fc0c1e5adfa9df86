import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

export const bar = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.xxs,
  padding: `${vars.space.xs} ${vars.space.md}`,
  backgroundColor: vars.color.surface,
  borderBottom: `1px solid ${vars.color.borderSubtle}`,
});

export const active = style({ backgroundColor: vars.color.selected });
