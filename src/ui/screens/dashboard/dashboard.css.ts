import { style } from '@vanilla-extract/css';
import { vars } from '../../theme.css';

export const subtitle = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const note = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm });

/** Filters in a row that wraps; each field keeps a usable width and never overflows 390 px. */
export const filters = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: vars.space.md });

export const filterField = style({ flex: '0 1 20rem', minWidth: 'min(100%, 16rem)' });

/** Lines up with the fields' boxes, below their labels. */
export const editDates = style({ marginTop: `calc(${vars.font.size.sm} * 1.5 + ${vars.space.xs})` });

export const ownTenant = style({
  margin: 0,
  alignSelf: 'center',
  color: vars.color.textMuted,
  fontSize: vars.font.size.sm,
});

export const sectionTitle = style({ margin: 0, fontSize: vars.font.size.lg, fontWeight: vars.font.weight.bold });

export const charts = style({
  display: 'grid',
  gap: vars.space.md,
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 30rem), 1fr))',
});
