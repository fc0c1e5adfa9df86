import { style, styleVariants } from '@vanilla-extract/css';
import { nativeFocusRingSelectors } from '../../components/focus.css';
import { vars } from '../../theme.css';

/** A chart card that takes the whole row of the charts grid. */
export const wide = style({ gridColumn: '1 / -1' });

/** The drawing area: full width of its card, never wider (no sideways overflow at 390 px). */
export const frame = style({ width: '100%', minWidth: 0 });

export const svg = style({ display: 'block', width: '100%', overflow: 'visible' });

export const grid = style({ stroke: vars.color.borderSubtle, strokeWidth: 1 });

export const baseline = style({ stroke: vars.color.border, strokeWidth: 1 });

export const axisText = style({ fill: vars.color.textMuted, fontSize: '11px', fontFamily: vars.font.family });

/** Series colours from the theme (≥ 3:1 against the card in both themes); the second also differs by dash. */
export const bar = styleVariants({
  primary: { fill: vars.color.primary },
  secondary: { fill: vars.color.success },
});

export const line = styleVariants({
  primary: { fill: 'none', stroke: vars.color.primary, strokeWidth: 2, strokeLinejoin: 'round' },
  secondary: {
    fill: 'none',
    stroke: vars.color.success,
    strokeWidth: 2,
    strokeLinejoin: 'round',
    strokeDasharray: '6 4',
  },
});

export const dot = styleVariants({
  primary: { fill: vars.color.background, stroke: vars.color.primary, strokeWidth: 2 },
  secondary: { fill: vars.color.background, stroke: vars.color.success, strokeWidth: 2 },
});

export const legend = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.md,
  margin: 0,
  padding: 0,
  listStyle: 'none',
  fontSize: vars.font.size.sm,
  color: vars.color.textMuted,
});

export const legendItem = style({ display: 'inline-flex', alignItems: 'center', gap: vars.space.xs });

export const tableWrapper = style({
  width: '100%',
  maxWidth: '100%',
  maxHeight: '22rem',
  overflow: 'auto',
  border: `1px solid ${vars.color.borderSubtle}`,
  borderRadius: vars.radius.md,
  // Keyboard users scroll it (it is focusable): the ring shows where they are.
  selectors: nativeFocusRingSelectors,
});

export const table = style({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: vars.font.size.sm,
  color: vars.color.text,
});

export const th = style({
  position: 'sticky',
  top: 0,
  padding: vars.space.sm,
  textAlign: 'start',
  whiteSpace: 'nowrap',
  backgroundColor: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
  fontWeight: vars.font.weight.bold,
});

export const td = style({
  padding: vars.space.sm,
  whiteSpace: 'nowrap',
  borderBottom: `1px solid ${vars.color.borderSubtle}`,
});

/** The date of a row: a row header for screen readers, plain text to the eye. */
export const rowHeader = style({
  textAlign: 'start',
  fontWeight: vars.font.weight.regular,
  selectors: { 'tfoot &': { fontWeight: vars.font.weight.bold } },
});

export const number = style({ textAlign: 'end', fontVariantNumeric: 'tabular-nums' });

export const total = style({ fontWeight: vars.font.weight.bold, backgroundColor: vars.color.surface });

/** The caption names the table for screen readers; the card's heading already shows it. */
export const caption = style({
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
});
