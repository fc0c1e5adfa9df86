import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

export const form = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md, minWidth: 0 });

export const formError = style({
  display: 'flex',
  alignItems: 'flex-start',
  gap: vars.space.sm,
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  // Colour plus icon plus text: the message never relies on the red alone.
  border: `1px solid ${vars.color.danger}`,
  backgroundColor: vars.color.dangerSurface,
  color: vars.color.text,
  fontSize: vars.font.size.sm,
});

export const formErrorIcon = style({ flexShrink: 0, marginTop: '0.1em', color: vars.color.danger });

export const actions = style({
  display: 'flex',
  flexWrap: 'wrap',
  justifyContent: 'flex-end',
  gap: vars.space.sm,
});
