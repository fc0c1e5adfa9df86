import { style } from '@vanilla-extract/css';
import { vars } from '../../theme.css';

/** The bar while rows are selected: the count, select all matching, clear, then the actions. */
export const bar = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.selected,
  color: vars.color.text,
});

/** Nothing selected: only the (empty) live region, taking no room. */
export const idle = style({ display: 'contents' });

export const count = style({ margin: 0, fontWeight: vars.font.weight.medium, minWidth: 0 });

export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, marginInlineStart: 'auto' });

export const groups = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md });

export const groupTitle = style({ margin: 0, fontSize: vars.font.size.md, fontWeight: vars.font.weight.bold });

export const list = style({
  margin: 0,
  paddingInlineStart: vars.space.lg,
  maxHeight: '12rem',
  overflowY: 'auto',
  color: vars.color.text,
});

export const muted = style({ color: vars.color.textMuted });

export const status = style({ display: 'inline-flex', alignItems: 'center', gap: vars.space.xs });

export const field = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs });

export const select = style({
  minHeight: vars.control.md,
  padding: `0 ${vars.space.sm}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: vars.color.surface,
  color: vars.color.text,
  fontSize: vars.font.size.md,
});
