import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

export const page = style({
  minHeight: '100vh',
  display: 'flex',
  flexDirection: 'column',
  backgroundColor: vars.color.background,
  color: vars.color.text,
});

export const header = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  // On a phone the language and theme tools go under the name rather than break it ("Back-/office").
  flexWrap: 'wrap',
  gap: vars.space.md,
  rowGap: vars.space.xs,
  padding: `${vars.space.sm} ${vars.space.lg}`,
});

export const brand = style({ fontWeight: 600, fontSize: vars.font.size.lg, whiteSpace: 'nowrap' });

export const tools = style({ display: 'flex', alignItems: 'center', gap: vars.space.xs, marginInlineStart: 'auto' });

export const main = style({
  flex: 1,
  display: 'grid',
  placeItems: 'center',
  padding: vars.space.lg,
  outline: 'none',
});
