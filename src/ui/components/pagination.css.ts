import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

export const nav = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  minWidth: 0,
});

export const range = style({ fontSize: vars.font.size.sm, color: vars.color.textMuted, fontVariantNumeric: 'tabular-nums' });

export const pages = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.xxs, margin: 0, padding: 0, listStyle: 'none' });

/** The current page: filled (shape/weight, not only colour) and `aria-current`. */
export const current = style({ fontWeight: vars.font.weight.bold });

export const ellipsis = style({ padding: `0 ${vars.space.xs}`, color: vars.color.textMuted });

/** Label and select on one line: "Itens por página [4 v]". */
export const pageSize = style({ flexDirection: 'row', alignItems: 'center', gap: vars.space.sm });

// The Select's trigger is full-width by default; here it only needs room for "50".
globalStyle(`${pageSize} button`, { width: '5.5rem' });
