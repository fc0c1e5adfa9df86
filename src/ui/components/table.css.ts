import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { focusRing } from './focus.css';

/**
 * Below this width of its own box a table reads as one card per row (docs/panel.md, "Tables on a
 * phone"): a container query, so a table in a narrow panel stacks as one on a phone does.
 */
export const CARD_BREAKPOINT = '36rem';
const cards = `(max-width: ${CARD_BREAKPOINT})`;

/**
 * A shadow at each edge past which the content goes on: the scroll cue of a table wider than its
 * box. Two cover gradients scroll with the content (`local`) and hide the two shadows (`scroll`) at
 * the ends, so a shadow shows only where there is more to scroll to. Shared with the windowed grid.
 */
export const scrollCue = style({
  backgroundImage: [
    `linear-gradient(to right, ${vars.color.background}, ${vars.color.background})`,
    `linear-gradient(to left, ${vars.color.background}, ${vars.color.background})`,
    `linear-gradient(to right, ${vars.color.backdrop}, transparent)`,
    `linear-gradient(to left, ${vars.color.backdrop}, transparent)`,
  ].join(', '),
  backgroundPosition: 'left center, right center, left center, right center',
  backgroundRepeat: 'no-repeat',
  backgroundSize: '1.5rem 100%, 1.5rem 100%, 0.75rem 100%, 0.75rem 100%',
  backgroundAttachment: 'local, local, scroll, scroll',
  backgroundColor: vars.color.background,
});

/**
 * The wrapper scrolls sideways when the table is wider than it (a spreadsheet), with the scroll cue;
 * below {@link CARD_BREAKPOINT} a list stacks as cards instead (`cardRows`).
 */
export const wrapper = style([
  scrollCue,
  {
    width: '100%',
    maxWidth: '100%',
    overflowX: 'auto',
    border: `1px solid ${vars.color.borderSubtle}`,
    borderRadius: vars.radius.md,
    containerType: 'inline-size',
  },
]);

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

/**
 * The row and select-all checkboxes: native inputs drawn by the theme (the platform's own box stayed
 * light grey on the dark theme): a `border`-token box, filled with the primary colour when checked,
 * the mark in `primaryText` through a mask, so both themes keep their contrast.
 */
const CHECK_MARK =
  "url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='3.5' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='M20 6 9 17l-5-5'/%3E%3C/svg%3E\")";
const DASH_MARK =
  "url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='3.5' stroke-linecap='round'%3E%3Cpath d='M5 12h14'/%3E%3C/svg%3E\")";
export const checkbox = style({
  appearance: 'none',
  display: 'inline-grid',
  placeContent: 'center',
  width: '1.125rem',
  height: '1.125rem',
  margin: 0,
  border: `2px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  backgroundColor: vars.color.background,
  verticalAlign: 'middle',
  cursor: 'pointer',
  selectors: {
    '&:focus-visible': focusRing,
    '&:checked, &:indeterminate': { backgroundColor: vars.color.primary, borderColor: vars.color.primary },
    '&::before': { content: '""', width: '0.75rem', height: '0.75rem', backgroundColor: vars.color.primaryText },
    '&:not(:checked):not(:indeterminate)::before': { visibility: 'hidden' },
    '&:checked::before': { maskImage: CHECK_MARK, maskSize: 'contain', maskRepeat: 'no-repeat' },
    '&:indeterminate::before': { maskImage: DASH_MARK, maskSize: 'contain', maskRepeat: 'no-repeat' },
    '&:disabled': { cursor: 'not-allowed', opacity: 0.55 },
  },
});

export const state = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: vars.space.sm,
  padding: vars.space.lg,
  color: vars.color.textMuted,
});

/*
 * Cards below CARD_BREAKPOINT. The elements keep their explicit grid roles (data-table.tsx), so the
 * grid reads the same to assistive technology; only the boxes change. Each cell shows its column's
 * name before its value (`data-label`, alt text "" so a screen reader hears the header once, from the
 * grid); the naming cell leads the card, the actions cell ends it and never leaves the screen.
 * Sortable headers stay as a row of buttons above the cards; the others are read, not shown.
 */
export const cardRows = style({});
const inCards = (selector: string, rule: Parameters<typeof globalStyle>[1]) =>
  globalStyle(selector, { '@container': { [cards]: rule } });

inCards(`${cardRows} > ${table}`, { display: 'block' });
inCards(`${cardRows} > ${table} > tbody`, { display: 'block' });
inCards(`${cardRows} > ${table} > thead`, { display: 'block', position: 'static' });
inCards(`${cardRows} > ${table} > thead > tr`, {
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.xs,
  padding: vars.space.sm,
  borderBottom: `1px solid ${vars.color.border}`,
});
// No header to sort by or select-all box: the header row is read, not shown (it would be an empty strip).
inCards(`${cardRows} > ${table} > thead > tr:not(:has([data-allows-sorting], input))`, {
  position: 'absolute',
  width: '1px',
  height: '1px',
  padding: 0,
  border: 'none',
  overflow: 'hidden',
  clipPath: 'inset(50%)',
});
inCards(`${cardRows} > ${table} > thead > tr > th`, {
  display: 'block',
  border: 'none',
  padding: `${vars.space.xs} ${vars.space.sm}`,
  minHeight: '2.75rem',
  alignContent: 'center',
});
inCards(`${cardRows} > ${table} > thead > tr > th[data-allows-sorting]`, {
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
});
// Columns that do not sort are named again in every card: read by the grid, not shown twice.
inCards(`${cardRows} > ${table} > thead > tr > th:not([data-allows-sorting]):not(:has(input))`, {
  position: 'absolute',
  width: '1px',
  height: '1px',
  minHeight: 0,
  padding: 0,
  overflow: 'hidden',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
});
inCards(`${cardRows} > ${table} > tbody:not([data-empty]) > tr`, {
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.xs,
  padding: `${vars.space.sm} ${vars.space.md}`,
});
inCards(`${cardRows} > ${table} > tbody:not([data-empty]) > tr > *`, {
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.md,
  padding: 0,
  minWidth: 0,
  textAlign: 'end',
  whiteSpace: 'normal',
  overflow: 'visible',
});
inCards(`${cardRows} > ${table} > tbody:not([data-empty]) > tr > [data-label]::before`, {
  content: 'attr(data-label) / ""',
  color: vars.color.textMuted,
  textAlign: 'start',
  flexShrink: 0,
  maxWidth: '50%',
});
inCards(`${cardRows} > ${table} > tbody:not([data-empty]) > tr > [role="rowheader"]`, {
  fontWeight: vars.font.weight.bold,
  justifyContent: 'flex-start',
  textAlign: 'start',
});
inCards(`${cardRows} > ${table} > tbody:not([data-empty]) > tr > [data-actions]`, {
  order: 1,
  justifyContent: 'flex-end',
  flexWrap: 'wrap',
});
inCards(`${cardRows} > ${table} > tbody > tr > td[data-empty-cell]`, { display: 'block' });

/*
 * Touch targets: below CARD_BREAKPOINT every control in a row (menus, buttons, links) is at least
 * 44 × 44 px (WCAG 2.5.5), whatever size the screen asked for.
 */
inCards(`${table} > tbody > tr > * :is(button, a[href])`, { minHeight: '2.75rem', minWidth: '2.75rem' });
