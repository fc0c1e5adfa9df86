import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

/** Shared by EmptyState and ErrorState: centred icon, title, body, action. */
export const root = style({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: vars.space.sm,
  padding: `${vars.space.lg} ${vars.space.md}`,
  textAlign: 'center',
  color: vars.color.text,
});

export const icon = style({ color: vars.color.textMuted });

export const errorIcon = style({ color: vars.color.danger });

export const title = style({ margin: 0, fontSize: vars.font.size.md, fontWeight: vars.font.weight.bold });

export const body = style({ margin: 0, maxWidth: '32rem', fontSize: vars.font.size.sm, color: vars.color.textMuted });
