import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { focusRing } from './focus.css';

/**
 * The wrapper scrolls sideways on narrow screens (390 px) instead of widening the page; the table
 * keeps its natural width inside it.
 */
export const wrapper = style({
  width: '100%',
  maxWidth: '100%',
  overflowX: 'auto',
  border: `1px solid ${vars.color.borderSubtle}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.background,
});

export const table = style({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: vars.font.size.sm,
  color: vars.color.text,
  outline: 'none',
  selectors: {
    '&:focus-visible': { ...focusRing, outlineOffset: '-2px' },
    // While a reload runs the rows shown stay, in the muted text colour: dimmed, yet every text keeps
    // its contrast (an opacity took the loading text and the rows below 4.5:1; tests/e2e/a11y-screens.spec.ts).
    '[aria-busy="true"] > &': { color: vars.color.textMuted },
  },
});

export const header = style({
  backgroundColor: vars.color.surface,
  position: 'sticky',
  top: 0,
  zIndex: vars.zIndex.sticky,
});

export const column = style({
  padding: `${vars.space.sm} ${vars.space.sm}`,
  textAlign: 'start',
  fontWeight: vars.font.weight.bold,
  whiteSpace: 'nowrap',
  borderBottom: `1px solid ${vars.color.border}`,
  outline: 'none',
  selectors: {
    '&:focus-visible': { ...focusRing, outlineOffset: '-2px' },
    '&[data-allows-sorting]': { cursor: 'pointer' },
    '&[data-allows-sorting]:hover': { backgroundColor: vars.color.surfaceHover },
  },
});

export const columnContent = style({ display: 'inline-flex', alignItems: 'center', gap: vars.space.xs });

/** The neutral sort icon of an unsorted sortable column is muted; the active one is full text colour. */
export const sortIcon = style({ color: vars.color.textMuted });

export const row = style({
  outline: 'none',
  borderBottom: `1px solid ${vars.color.borderSubtle}`,
  selectors: {
    '&:hover': { backgroundColor: vars.color.surfaceHover },
    '&[aria-selected="true"]': { backgroundColor: vars.color.selected },
    '&:focus-visible': { ...focusRing, outlineOffset: '-2px' },
    '&[data-action]': { cursor: 'pointer' },
    '&[aria-disabled="true"]': { color: vars.color.textMuted },
  },
});

export const cell = style({
  padding: `${vars.space.sm} ${vars.space.sm}`,
  verticalAlign: 'middle',
  // Cells keep their words whole: on a narrow screen the wrapper scrolls sideways instead of
  // breaking "ana@demo.local" into three lines.
  whiteSpace: 'nowrap',
  overflowWrap: 'normal',
  outline: 'none',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  selectors: { '&:focus-visible': { ...focusRing, outlineOffset: '-2px' } },
});

/** The row's naming cell is a `th` for its semantics only: it reads like the other cells. */
export const rowHeader = style({ fontWeight: 'inherit', textAlign: 'start' });

export const alignEnd = style({ textAlign: 'end', fontVariantNumeric: 'tabular-nums' });

export const selectionCell = style({ width: '2.75rem' });

/** The row and select-all checkboxes: the platform's own, in the accent colour. */
export const checkbox = style({
  width: '1.125rem',
  height: '1.125rem',
  margin: 0,
  accentColor: vars.color.primary,
  cursor: 'pointer',
});

export const state = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: vars.space.sm,
  padding: vars.space.lg,
  color: vars.color.textMuted,
});
