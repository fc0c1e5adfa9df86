import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

export const anchor = style({ position: 'relative', display: 'inline-flex' });
export const badge = style({
  position: 'absolute',
  top: 2,
  insetInlineEnd: 2,
  minWidth: '1.1rem',
  height: '1.1rem',
  padding: '0 0.25rem',
  borderRadius: '999px',
  backgroundColor: vars.color.danger,
  color: vars.color.dangerText,
  fontSize: '0.7rem',
  fontWeight: 700,
  lineHeight: '1.1rem',
  textAlign: 'center',
  pointerEvents: 'none',
});
export const popover = style({
  width: 'min(24rem, calc(100vw - 1rem))',
  maxHeight: 'min(28rem, var(--popover-available-height, 28rem))',
  overflow: 'auto',
  backgroundColor: vars.color.surfaceRaised,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.md,
  zIndex: vars.zIndex.popover,
});
export const dialog = style({ outline: 'none', padding: vars.space.sm });
export const header = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  marginBottom: vars.space.xs,
});
export const heading = style({ margin: 0, fontSize: vars.font.size.md });
export const empty = style({ margin: 0, padding: vars.space.sm, color: vars.color.textMuted });
export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: vars.space.xs });
export const line = style({
  display: 'grid',
  gap: vars.space.xxs,
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.surface,
});
export const lineTitle = style({ fontWeight: 600 });
export const meta = style({ fontSize: vars.font.size.sm, color: vars.color.textMuted });
