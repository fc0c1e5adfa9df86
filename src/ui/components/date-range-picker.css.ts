import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { focusRing } from './focus.css';

export const group = style({
  display: 'flex',
  alignItems: 'center',
  flexWrap: 'wrap',
  gap: vars.space.xxs,
  width: '100%',
  minHeight: vars.control.md,
  paddingInlineStart: vars.space.sm,
  backgroundColor: vars.color.background,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  selectors: {
    '&[data-focus-within]': focusRing,
    '&[data-invalid]': { borderColor: vars.color.danger, borderWidth: '2px' },
    '&[data-disabled]': { backgroundColor: vars.color.surface, color: vars.color.textMuted },
  },
});

export const input = style({ display: 'inline-flex', alignItems: 'center', fontVariantNumeric: 'tabular-nums' });

export const segment = style({
  padding: `0 ${vars.space.xxs}`,
  borderRadius: vars.radius.sm,
  outline: 'none',
  selectors: {
    '&[data-placeholder]': { color: vars.color.textMuted },
    '&[data-type="literal"]': { padding: 0 },
    // The focused segment is inverted (primary background): visible as a block, not just a caret.
    '&[data-focused]': { backgroundColor: vars.color.primary, color: vars.color.primaryText },
  },
});

export const dash = style({ padding: `0 ${vars.space.xs}`, color: vars.color.textMuted });

export const calendarButton = style({ marginInlineStart: 'auto' });

export const dialog = style({ outline: 'none', padding: vars.space.xs });

export const calendarHeader = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  marginBottom: vars.space.sm,
});

// "março de 2026" → "Março de 2026": only the first letter (capitalize would give "Março De 2026").
export const heading = style({
  margin: 0,
  fontSize: vars.font.size.md,
  fontWeight: vars.font.weight.bold,
  selectors: { '&::first-letter': { textTransform: 'uppercase' } },
});

/** The calendar keeps its own width instead of stretching to the field's (the popover default). */
export const calendarPopover = style({ minWidth: 'auto' });

export const grid = style({ borderCollapse: 'collapse', fontSize: vars.font.size.sm });

export const headerCell = style({
  padding: vars.space.xxs,
  color: vars.color.textMuted,
  fontWeight: vars.font.weight.medium,
  textTransform: 'uppercase',
});

export const cell = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '2.25rem',
  height: '2.25rem',
  borderRadius: vars.radius.sm,
  cursor: 'pointer',
  outline: 'none',
  fontVariantNumeric: 'tabular-nums',
  selectors: {
    '&[data-hovered]': { backgroundColor: vars.color.surfaceHover },
    '&[data-outside-month]': { visibility: 'hidden' },
    '&[data-selected]': { backgroundColor: vars.color.selected, borderRadius: 0 },
    '&[data-selection-start], &[data-selection-end]': {
      backgroundColor: vars.color.primary,
      color: vars.color.primaryText,
      borderRadius: vars.radius.sm,
      fontWeight: vars.font.weight.bold,
    },
    '&[data-disabled], &[data-unavailable]': {
      color: vars.color.textMuted,
      textDecoration: 'line-through',
      cursor: 'not-allowed',
    },
    '&[data-focus-visible]': focusRing,
  },
});

/** Today gets an underline, so it is found without colour. */
export const today = style({ textDecoration: 'underline', textUnderlineOffset: '0.2em' });
