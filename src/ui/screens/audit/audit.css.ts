import { style } from '@vanilla-extract/css';
import { vars } from '../../theme.css';

// A record's columns and detail are styled in src/ui/components/audit-record/audit-record.css.ts.

/** The id filters are short numbers: narrower than the period and the selects. */
export const idField = style({ flex: '0 1 10rem', minWidth: 0 });

/** "Carregar mais" / the end of the list, and the live notice. */
export const footer = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  color: vars.color.textMuted,
  fontSize: vars.font.size.sm,
});

export const notice = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  padding: vars.space.sm,
  border: `1px solid ${vars.color.borderSubtle}`,
  borderRadius: vars.radius.md,
  fontSize: vars.font.size.sm,
});

export const error = style({ margin: 0, color: vars.color.danger, fontSize: vars.font.size.sm });

export const value = style({ margin: 0, minWidth: 0, overflowWrap: 'anywhere' });

/** A row's cell on one line: cut with an ellipsis past its width (the whole text is its title). */
export const line = style({
  display: 'block',
  maxWidth: '16rem',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
});

export const code = style({ fontFamily: vars.font.mono, fontSize: vars.font.size.sm, maxWidth: '8rem' });

/** A record's expanded details, under its row. */
export const details = style({ padding: `${vars.space.sm} ${vars.space.md}`, maxWidth: '60rem' });

/** "Filtros (n)": the filters' toggle, on narrow screens only; the filters fold behind it there. */
export const filtersToggle = style({
  display: 'none',
  '@media': { '(max-width: 47.99rem)': { display: 'flex' } },
});

export const filtersFolded = style({
  '@media': { '(max-width: 47.99rem)': { display: 'none' } },
});
