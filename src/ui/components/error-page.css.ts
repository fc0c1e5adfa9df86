import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

export const page = style({
  maxWidth: '32rem',
  // Centred in the shell's main column as in the blank layout (docs/panel.md).
  marginInline: 'auto',
  paddingBlock: vars.space.lg,
  textAlign: 'center',
  display: 'grid',
  gap: vars.space.md,
  justifyItems: 'center',
});
export const code = style({ margin: 0, fontSize: '4rem', fontWeight: 700, lineHeight: 1, color: vars.color.primary });
export const title = style({ margin: 0, fontSize: vars.font.size.xxl, lineHeight: 1.2 });
export const body = style({
  margin: 0,
  display: 'grid',
  gap: vars.space.sm,
  color: vars.color.textMuted,
  fontSize: vars.font.size.lg,
});
export const actions = style({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: vars.space.sm });
export const paragraph = style({ margin: 0 });
export const requestId = style({
  fontFamily: vars.font.mono,
  fontSize: vars.font.size.sm,
  color: vars.color.text,
  userSelect: 'all',
  overflowWrap: 'anywhere',
});
export const people = style({ listStyle: 'none', margin: `${vars.space.xs} 0 0`, padding: 0, color: vars.color.text });
