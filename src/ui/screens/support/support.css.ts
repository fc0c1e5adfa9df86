import { style } from '@vanilla-extract/css';
import { vars } from '../../theme.css';

export const screen = style({ display: 'flex', flexDirection: 'column', gap: vars.space.lg, minWidth: 0 });

export const search = style({ maxWidth: '36rem', width: '100%' });

/** A name with what identifies it below (the e-mail), in a table cell. */
export const stack = style({ display: 'flex', flexDirection: 'column', minWidth: 0, gap: vars.space.xxs });

export const secondary = style({ color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const code = style({ fontFamily: vars.font.mono, fontSize: vars.font.size.sm, overflowWrap: 'anywhere' });

/** An e-mail in a table cell: wraps anywhere rather than widening the table past the screen. */
export const email = style({ overflowWrap: 'anywhere', minWidth: '10rem', display: 'inline-block' });

export const nowrap = style({ whiteSpace: 'nowrap' });

export const note = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm });

/** The person's header: name and badges, then the facts. */
export const header = style({ display: 'flex', flexDirection: 'column', gap: vars.space.sm, minWidth: 0 });

export const nameLine = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  margin: 0,
  fontSize: vars.font.size.xl,
  fontWeight: vars.font.weight.bold,
  overflowWrap: 'anywhere',
});

export const badges = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xs, alignItems: 'center' });

export const facts = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 9rem), 1fr))',
  gap: `${vars.space.sm} ${vars.space.lg}`,
  margin: 0,
});

export const fact = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xxs, minWidth: 0 });

/** The e-mail's fact: two columns wide, so an address is not cut at every few letters. */
export const wideFact = style({ gridColumn: 'span 2' });

export const term = style({ color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const value = style({ margin: 0, minWidth: 0, overflowWrap: 'anywhere' });

/** The sections under the header and the actions, one above the other. */
export const sections = style({ display: 'flex', flexDirection: 'column', gap: vars.space.lg, minWidth: 0 });

/**
 * The actions, right under the person's facts (what a call is about), as a grid of equal buttons that
 * wraps to one column on a phone; a button's hint (why it is off) sits under it.
 */
export const actions = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 15rem), 1fr))',
  gap: vars.space.sm,
  alignItems: 'start',
  minWidth: 0,
});

export const actionGroup = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs, minWidth: 0 });

/** A line across the whole grid (the deleted person's note). */
export const actionsNote = style({
  gridColumn: '1 / -1',
  margin: 0,
  color: vars.color.textMuted,
  fontSize: vars.font.size.sm,
});

export const actionHint = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const throttle = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs, margin: 0 });

export const topBar = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
});

export const refusal = style({
  display: 'block',
  marginTop: vars.space.sm,
  color: vars.color.danger,
  fontWeight: vars.font.weight.medium,
});
