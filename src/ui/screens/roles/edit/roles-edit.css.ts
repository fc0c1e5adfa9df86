import { style } from '@vanilla-extract/css';
import { vars } from '../../../theme.css';

export const header = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'flex-start',
  justifyContent: 'space-between',
  gap: vars.space.md,
});

export const titleRow = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  margin: 0,
  fontSize: vars.font.size.xl,
  lineHeight: vars.font.lineHeight.tight,
});

export const muted = style({
  margin: 0,
  color: vars.color.textMuted,
  fontSize: vars.font.size.sm,
  overflowWrap: 'anywhere',
});

export const notice = style({
  margin: 0,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.infoSurface,
  color: vars.color.text,
  borderLeft: `4px solid ${vars.color.info}`,
});

export const count = style({
  color: vars.color.textMuted,
  fontSize: vars.font.size.sm,
  fontVariantNumeric: 'tabular-nums',
});

export const categoryTools = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.md });

/** A permission's box and label, with the lock beside it when the editor cannot add or remove it. */
export const permission = style({ display: 'flex', alignItems: 'center', gap: vars.space.xs, minWidth: 0 });

export const actionBar = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  padding: `${vars.space.sm} ${vars.space.md}`,
  backgroundColor: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.borderSubtle}`,
  borderRadius: vars.radius.lg,
  boxShadow: vars.shadow.md,
});

export const dirty = style({ margin: 0, fontWeight: vars.font.weight.medium, color: vars.color.warning });

export const clean = style({ margin: 0, color: vars.color.textMuted });

export const buttons = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, marginLeft: 'auto' });

export const loading = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md });

/** Stays in view at the bottom of the page while there is something to save. */
export const sticky = style({ position: 'sticky', bottom: vars.space.sm, zIndex: vars.zIndex.sticky });

/** Beside a permission the editor cannot add or remove (the note above says why). */
export const lockIcon = style({ flexShrink: 0, color: vars.color.textMuted });
