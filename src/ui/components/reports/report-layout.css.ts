import { style } from '@vanilla-extract/css';
import { vars } from '../../theme.css';

/** The report screens: intro, toolbar, count, table (shared by productivity and login failures). */
export const screen = style({ display: 'flex', flexDirection: 'column', gap: vars.space.lg, minWidth: 0 });

export const intro = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm, maxWidth: '70ch' });

/** Period and filters grow; the buttons keep their size and wrap below on phones. */
export const toolbar = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'flex-start',
  gap: vars.space.md,
  minWidth: 0,
});

/** The buttons' column: an empty line as tall as a field label, so they sit level with the inputs. */
export const actions = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs });

export const labelSpace = style({
  visibility: 'hidden',
  fontSize: vars.font.size.sm,
  // On phones the buttons wrap onto their own line, where the spacer would only add a gap.
  '@media': { '(max-width: 47.99rem)': { display: 'none' } },
});

export const field = style({ flex: '1 1 18rem', minWidth: 0, maxWidth: '26rem' });

export const buttons = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'center' });

export const total = style({
  margin: 0,
  color: vars.color.textMuted,
  fontSize: vars.font.size.sm,
  fontVariantNumeric: 'tabular-nums',
});

export const muted = style({ color: vars.color.textMuted });

export const nowrap = style({ whiteSpace: 'nowrap' });
