import { style } from '@vanilla-extract/css';
import { vars } from '../../theme.css';

/** The notice: a warning panel in the form's flow, above the fields it is about. */
export const notice = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.md,
  padding: vars.space.md,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.warningSurface,
  color: vars.color.text,
  borderLeft: `4px solid ${vars.color.warning}`,
});

export const info = style({
  backgroundColor: vars.color.infoSurface,
  borderLeftColor: vars.color.info,
});

export const title = style({ margin: 0, fontSize: vars.font.size.lg, lineHeight: vars.font.lineHeight.tight });

export const message = style({ margin: 0 });

/** Their change and the user's values side by side where there is room, one above the other on a phone. */
export const columns = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 18rem), 1fr))',
  gap: vars.space.md,
});

export const column = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  minWidth: 0,
  padding: vars.space.sm,
  borderRadius: vars.radius.sm,
  backgroundColor: vars.color.surface,
  border: `1px solid ${vars.color.borderSubtle}`,
});

export const heading = style({ margin: 0, fontSize: vars.font.size.md });

/** The other changes, oldest first: one block each, no markers. */
export const changes = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  margin: 0,
  padding: 0,
  listStyle: 'none',
});

export const change = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs, margin: 0 });

export const byline = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const fields = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(6rem, max-content) 1fr',
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: 0,
  fontSize: vars.font.size.sm,
});

/** A term and its value inside the grid of `fields`. */
export const pair = style({ display: 'contents' });

export const term = style({ margin: 0, fontWeight: vars.font.weight.medium, overflowWrap: 'anywhere' });

export const value = style({ margin: 0, minWidth: 0, overflowWrap: 'anywhere' });

export const arrow = style({ color: vars.color.textMuted, paddingInline: vars.space.xs });

export const items = style({ margin: 0, paddingInlineStart: vars.space.md });

export const muted = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, justifyContent: 'flex-end' });

/** Wraps a form's fields while the notice waits for the user's choice: disabled, with no frame of its own. */
export const heldFields = style({ border: 0, padding: 0, margin: 0, minWidth: 0 });

/** Space under the notice where it stands above a form without a stack's gap (a dialog's body). */
export const spaced = style({ marginBlockEnd: vars.space.md });
