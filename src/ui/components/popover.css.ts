import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { focusRing } from './focus.css';

/** The floating surface of Select, ComboBox, MultiSelect, Menu and DateRangePicker. */
export const popover = style({
  minWidth: 'var(--trigger-width)',
  maxWidth: 'min(28rem, calc(100vw - 1rem))',
  maxHeight: 'min(20rem, var(--popover-available-height, 20rem))',
  overflow: 'auto',
  padding: vars.space.xs,
  backgroundColor: vars.color.surfaceRaised,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.md,
  zIndex: vars.zIndex.popover,
  outline: 'none',
});

/** A listbox or menu inside a popover. */
export const list = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xxs, outline: 'none' });

/** One option or menu item; the checkmark column keeps labels aligned whether selected or not. */
export const item = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  minHeight: vars.control.sm,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  borderRadius: vars.radius.sm,
  fontSize: vars.font.size.md,
  // An item with `href` is an <a>: it reads as the other items, not in the browser's link blue.
  color: 'inherit',
  textDecoration: 'none',
  cursor: 'pointer',
  outline: 'none',
  selectors: {
    '&[data-focused], &[data-hovered]': { backgroundColor: vars.color.surfaceHover },
    '&[data-selected]': { backgroundColor: vars.color.selected, fontWeight: vars.font.weight.medium },
    '&[data-focus-visible]': { ...focusRing, outlineOffset: '-2px' },
    '&[data-disabled]': { color: vars.color.textMuted, cursor: 'not-allowed' },
    '&[data-danger]': { color: vars.color.danger },
  },
});

export const check = style({ flexShrink: 0, width: '1rem', color: vars.color.primary });

export const itemLabel = style({ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' });

export const empty = style({ padding: vars.space.sm, color: vars.color.textMuted, fontSize: vars.font.size.sm });

/** The field-looking button that opens a Select or MultiSelect. */
export const trigger = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  width: '100%',
  minHeight: vars.control.md,
  padding: `0 ${vars.space.sm}`,
  backgroundColor: vars.color.background,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  fontSize: vars.font.size.md,
  textAlign: 'start',
  cursor: 'pointer',
  outline: 'none',
  selectors: {
    '&[data-focus-visible]': focusRing,
    '&[data-hovered]': { backgroundColor: vars.color.surfaceHover },
    '&[data-disabled]': { backgroundColor: vars.color.surface, color: vars.color.textMuted, cursor: 'not-allowed' },
    '[data-invalid] &': { borderColor: vars.color.danger, borderWidth: '2px' },
  },
});

export const value = style({
  flex: 1,
  minWidth: 0,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  selectors: { '&[data-placeholder]': { color: vars.color.textMuted } },
});

export const description = style({
  display: 'block',
  fontSize: vars.font.size.sm,
  color: vars.color.textMuted,
  fontWeight: vars.font.weight.regular,
});
