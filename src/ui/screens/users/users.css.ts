import { style } from '@vanilla-extract/css';
import { vars } from '../../theme.css';

/** Search grows, the summary and the create button keep their size and wrap below on phones. */
export const toolbar = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: vars.space.md });

export const search = style({ flex: '1 1 16rem', minWidth: 0, maxWidth: '28rem' });

/** The list's filters, side by side, wrapping on a phone. */
export const filters = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: vars.space.md });

export const summary = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm, flex: '1 1 auto' });

export const rowActions = style({
  display: 'inline-flex',
  flexWrap: 'nowrap',
  alignItems: 'center',
  gap: vars.space.xs,
  justifyContent: 'flex-end',
});

export const badges = style({ display: 'inline-flex', flexWrap: 'nowrap', gap: vars.space.xs });

export const muted = style({ color: vars.color.textMuted });

/** Form fields two by two at 1366 px, one per line on a phone (the dialog is narrower than the page). */
export const fields = style({
  display: 'grid',
  gap: vars.space.md,
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 18rem), 1fr))',
});

export const wide = style({ gridColumn: '1 / -1' });

export const section = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  margin: 0,
  padding: 0,
  border: 'none',
  minWidth: 0,
});

export const sectionTitle = style({ margin: 0, fontSize: vars.font.size.md, fontWeight: vars.font.weight.bold });

export const help = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const links = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.xs,
});

export const link = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  border: `1px solid ${vars.color.borderSubtle}`,
  borderRadius: vars.radius.md,
  minWidth: 0,
});

export const linkName = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.sm,
  minWidth: 0,
  overflowWrap: 'anywhere',
});

export const loading = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  color: vars.color.textMuted,
  padding: `${vars.space.lg} 0`,
});

export const screen = style({ display: 'flex', flexDirection: 'column', gap: vars.space.lg, minWidth: 0 });

/** The lock before the buttons of a user the signed-in admin may not act on: muted, it only explains. */
export const lock = style({ color: vars.color.textMuted });
