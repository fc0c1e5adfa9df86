import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

export const overlay = style({
  position: 'fixed',
  inset: 0,
  zIndex: vars.zIndex.overlay,
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: vars.space.md,
  backgroundColor: vars.color.backdrop,
  color: vars.color.primaryText,
  cursor: 'progress',
});

/** The label sits on a raised surface so its contrast does not depend on the translucent backdrop. */
export const panel = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.surfaceRaised,
  color: vars.color.text,
  boxShadow: vars.shadow.lg,
});
