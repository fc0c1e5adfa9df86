import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { nativeSelect, nativeSelectIcon } from './native-select.css';
import { touchTargets } from './touch-targets.css';

/** The page buttons and the page-size select are 44 px targets on a phone (./touch-targets.css.ts). */
export const nav = style([
  touchTargets,
  {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: vars.space.sm,
    minWidth: 0,
  },
]);

export const range = style({
  fontSize: vars.font.size.sm,
  color: vars.color.textMuted,
  fontVariantNumeric: 'tabular-nums',
});

export const pages = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.xxs,
  margin: 0,
  padding: 0,
  listStyle: 'none',
});

/** The current page: filled (shape/weight, not only colour) and `aria-current`. */
export const current = style({ fontWeight: vars.font.weight.bold });

export const ellipsis = style({ padding: `0 ${vars.space.xs}`, color: vars.color.textMuted });

/** Label and select on one line: "Itens por página [4 v]". */
export const pageSize = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm });

/** The select and its chevron (the browser's own arrow is hidden: the same chevron as select.tsx's). */
export const selectBox = style({ position: 'relative', display: 'inline-flex', alignItems: 'center' });

/** The page-size select: a native select (./native-select.css.ts), room for "50". */
export const select = style([nativeSelect, { width: '5.5rem' }]);

export const selectIcon = nativeSelectIcon;
