import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { focusRing } from './focus.css';

/** A field: label, control, description, error, stacked. `minWidth: 0` lets it shrink in grids. */
export const field = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.xs,
  minWidth: 0,
});

export const label = style({
  fontSize: vars.font.size.sm,
  fontWeight: vars.font.weight.medium,
  color: vars.color.text,
});

export const required = style({ color: vars.color.danger, marginInlineStart: vars.space.xxs });

export const description = style({ fontSize: vars.font.size.sm, color: vars.color.textMuted });

export const error = style({
  fontSize: vars.font.size.sm,
  color: vars.color.danger,
  fontWeight: vars.font.weight.medium,
});

/** The bordered box of a text-like control; used on RAC `Input` and on `Group`s holding one. */
export const inputBox = style({
  display: 'flex',
  alignItems: 'center',
  width: '100%',
  minHeight: vars.control.md,
  minWidth: 0,
  backgroundColor: vars.color.background,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  selectors: {
    // Text inputs show the ring on any focus, mouse included: the caret alone is too faint to find.
    '&[data-focused], &[data-focus-within]': focusRing,
    '&[data-invalid]': { borderColor: vars.color.danger, borderWidth: '2px' },
    '&[data-disabled]': { backgroundColor: vars.color.surface, color: vars.color.textMuted, cursor: 'not-allowed' },
  },
});

/** The native input, when it sits inside an `inputBox` group (password, number, search). */
export const innerInput = style({
  flex: 1,
  minWidth: 0,
  height: '100%',
  padding: `0 ${vars.space.sm}`,
  border: 'none',
  background: 'transparent',
  color: 'inherit',
  fontSize: vars.font.size.md,
  outline: 'none',
  '::placeholder': { color: vars.color.textMuted, opacity: 1 },
});

/** A standalone input: the box and the text padding on one element. */
export const input = style([
  inputBox,
  {
    padding: `0 ${vars.space.sm}`,
    fontSize: vars.font.size.md,
    outline: 'none',
    '::placeholder': { color: vars.color.textMuted, opacity: 1 },
  },
]);

/** Compact square buttons inside an input box (show password, clear, steppers). */
export const inputButton = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  flexShrink: 0,
  width: vars.control.sm,
  height: vars.control.sm,
  marginInlineEnd: vars.space.xxs,
  padding: 0,
  border: 'none',
  borderRadius: vars.radius.sm,
  background: 'transparent',
  color: vars.color.textMuted,
  cursor: 'pointer',
  outline: 'none',
  selectors: {
    '&[data-hovered]': { backgroundColor: vars.color.surfaceHover, color: vars.color.text },
    '&[data-focus-visible]': focusRing,
    '&[data-disabled]': { cursor: 'not-allowed', opacity: 0.55 },
  },
});

/** An `inputBox` wrapping an input plus buttons: the ring follows the input's focus only. */
export const groupBox = style([
  inputBox,
  {
    selectors: {
      '&:has(input:focus)': focusRing,
    },
  },
]);
