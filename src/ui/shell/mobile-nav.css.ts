import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

export const overlay = style({ position: 'fixed', inset: 0, zIndex: 100, backgroundColor: vars.color.backdrop });
export const drawer = style({
  position: 'fixed',
  insetBlock: 0,
  insetInlineStart: 0,
  width: 'min(20rem, 85vw)',
  overflowY: 'auto',
  backgroundColor: vars.color.surface,
  boxShadow: vars.shadow.lg,
});
export const dialog = style({ outline: 'none' });
export const top = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  padding: `${vars.space.sm} ${vars.space.md}`,
});
export const brand = style({ fontWeight: 600 });
