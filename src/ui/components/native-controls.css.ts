import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { focusRing } from './focus.css';

/*
 * The native twins of the RAC states the shared styles select on (`data-hovered`, `data-pressed`,
 * `data-focus-visible`, `data-focused`, `data-invalid`): plain elements get the same look from
 * pseudo-classes and ARIA attributes, so the login route needs no React Aria at all.
 */
const hover = (backgroundColor: string) => ({
  selectors: {
    '&:active:not(:disabled):not([aria-disabled="true"])': { backgroundColor },
  },
  '@media': {
    '(hover: hover)': { selectors: { '&:hover:not(:disabled):not([aria-disabled="true"])': { backgroundColor } } },
  },
});

export const buttonState = style({
  selectors: {
    '&:focus-visible': focusRing,
    '&:disabled': { cursor: 'not-allowed', opacity: 0.55 },
    '&[aria-busy="true"]': { cursor: 'progress' },
  },
});

export const buttonHover = styleVariants({
  primary: hover(vars.color.primaryFillHover),
  secondary: hover(vars.color.surfaceHover),
  danger: hover(vars.color.dangerHover),
  ghost: hover(vars.color.surfaceHover),
});

/** A standalone native input: ring on any focus (as RAC's `data-focused`), red when invalid. */
export const inputState = style({
  selectors: {
    '&:focus': focusRing,
    '&[aria-invalid="true"]': { borderColor: vars.color.danger, borderWidth: '2px' },
    '&:disabled': { backgroundColor: vars.color.surface, color: vars.color.textMuted, cursor: 'not-allowed' },
  },
});

/** The bordered group around a native input plus its buttons (password). */
export const groupState = style({
  selectors: {
    '&:has(input[aria-invalid="true"])': { borderColor: vars.color.danger, borderWidth: '2px' },
  },
});

export const inputButtonState = style({
  selectors: {
    '&:focus-visible': focusRing,
    '&:disabled': { cursor: 'not-allowed', opacity: 0.55 },
  },
  '@media': {
    '(hover: hover)': {
      selectors: { '&:hover:not(:disabled)': { backgroundColor: vars.color.surfaceHover, color: vars.color.text } },
    },
  },
});
