import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { focusRing } from './focus.css';

/*
 * The windowed grid (virtualized-table.tsx): plain elements, so keyboard focus shows through
 * `:focus-visible` (the browser's own keyboard/mouse heuristic) instead of RAC's data attributes.
 * Cells share one CSS grid template per row, so the header and every row line up without a table.
 */

/** The scroll container: the grid itself, as RAC's Virtualizer had it. */
export const grid = style({
  display: 'block',
  overflow: 'auto',
  position: 'relative',
  selectors: { '&:focus-visible': { ...focusRing, outlineOffset: '-2px' } },
});

/** Header and body share the content width (wider than the viewport on a phone: it scrolls sideways). */
export const content = style({ position: 'relative', width: '100%' });

export const header = style({
  position: 'sticky',
  top: 0,
  zIndex: vars.zIndex.sticky,
  backgroundColor: vars.color.surface,
});

export const headerRow = style({ display: 'grid', alignItems: 'stretch' });

export const column = style({
  display: 'flex',
  alignItems: 'center',
  minWidth: 0,
  selectors: {
    '&:focus-visible': { ...focusRing, outlineOffset: '-2px' },
    '&[data-allows-sorting]:hover': { backgroundColor: vars.color.surfaceHover },
  },
});

export const columnEnd = style({ justifyContent: 'flex-end' });

/** Size, layout and paint containment: mounting rows never relayouts anything outside the body. */
export const body = style({ position: 'relative', contain: 'strict' });

export const row = style({
  position: 'absolute',
  left: 0,
  right: 0,
  display: 'grid',
  alignItems: 'stretch',
  boxSizing: 'border-box',
  // Its size is its position's (left/right/height): a new row is laid out on its own.
  contain: 'strict',
  selectors: {
    '&:hover': { backgroundColor: vars.color.surfaceHover },
    '&:focus-visible': { ...focusRing, outlineOffset: '-2px' },
  },
});

export const cell = style({
  display: 'flex',
  alignItems: 'center',
  minWidth: 0,
  // Sized by its column and row, never by its text: laying out a scrolled-in row stays local.
  contain: 'strict',
  selectors: { '&:focus-visible': { ...focusRing, outlineOffset: '-2px' } },
});

export const cellEnd = style({ justifyContent: 'flex-end' });

/** Long text ends in an ellipsis inside its column instead of widening it. */
export const cellContent = style({ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });

/** The loading, empty or error slot spans every column. */
export const stateRow = style({ display: 'block' });
