import { style } from '@vanilla-extract/css';
import { vars } from '../../theme.css';

// A record's columns and detail are styled in src/ui/components/audit-record/audit-record.css.ts.

/** The id filters are short numbers: narrower than the period and the selects. */
export const idField = style({ flex: '0 1 10rem', minWidth: 0 });

/** "Carregar mais" / the end of the list. */
export const footer = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  color: vars.color.textMuted,
  fontSize: vars.font.size.sm,
});

/**
 * The list the user may be engaged with (audit.tsx, useEngaged): the line above the table, the table
 * and its footer, spaced as the screen spaces its parts.
 */
export const area = style({ display: 'flex', flexDirection: 'column', gap: vars.space.lg, minWidth: 0 });

/**
 * The line above the table: the live notice at its start, the views and columns at its end. It never
 * wraps, so the notice coming or going never changes its height (nor moves the rows below).
 */
export const toolbar = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, minWidth: 0 });

/** The live notice: the count of the records held and the button that shows them. */
export const held = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  flex: '1 1 0',
  minWidth: 0,
  fontSize: vars.font.size.sm,
});

/** The arrow before the count; on a phone its room goes to the words (the line is narrow there). */
export const heldIcon = style({
  flexShrink: 0,
  '@media': { '(max-width: 47.99rem)': { display: 'none' } },
});

export const heldCount = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.xs,
  minWidth: 0,
  color: vars.color.text,
  lineHeight: vars.font.lineHeight.tight,
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
