import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { focusRingSelectors } from './focus.css';

export const base = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: vars.space.sm,
  maxWidth: '100%',
  border: '1px solid transparent',
  borderRadius: vars.radius.md,
  fontFamily: vars.font.family,
  fontWeight: vars.font.weight.medium,
  lineHeight: vars.font.lineHeight.tight,
  textDecoration: 'none',
  whiteSpace: 'nowrap',
  cursor: 'pointer',
  userSelect: 'none',
  outline: 'none',
  transition: `background-color ${vars.duration.fast}, border-color ${vars.duration.fast}`,
  WebkitTapHighlightColor: 'transparent',
  selectors: {
    ...focusRingSelectors,
    '&[data-disabled]': { cursor: 'not-allowed', opacity: 0.55 },
    '&[data-pending]': { cursor: 'progress' },
  },
});

/**
 * A disabled filled button loses its fill (outline and muted label, dimmed by `base`): it can never be
 * taken for an enabled primary one, whose fill is solid and saturated (theme.css.ts, primaryFill).
 */
const unfilled = { backgroundColor: 'transparent', borderColor: vars.color.border, color: vars.color.textMuted };

export const variant = styleVariants({
  primary: {
    backgroundColor: vars.color.primaryFill,
    color: vars.color.primaryFillText,
    selectors: {
      '&[data-hovered], &[data-pressed]': { backgroundColor: vars.color.primaryFillHover },
      '&[data-disabled], &:disabled': unfilled,
    },
  },
  secondary: {
    backgroundColor: vars.color.background,
    color: vars.color.text,
    borderColor: vars.color.border,
    selectors: { '&[data-hovered], &[data-pressed]': { backgroundColor: vars.color.surfaceHover } },
  },
  danger: {
    backgroundColor: vars.color.danger,
    color: vars.color.dangerText,
    selectors: {
      '&[data-hovered], &[data-pressed]': { backgroundColor: vars.color.dangerHover },
      '&[data-disabled], &:disabled': unfilled,
    },
  },
  ghost: {
    backgroundColor: 'transparent',
    color: vars.color.text,
    selectors: { '&[data-hovered], &[data-pressed]': { backgroundColor: vars.color.surfaceHover } },
  },
});

export const size = styleVariants({
  sm: { minHeight: vars.control.sm, padding: `0 ${vars.space.sm}`, fontSize: vars.font.size.sm },
  md: { minHeight: vars.control.md, padding: `0 ${vars.space.md}`, fontSize: vars.font.size.md },
  lg: { minHeight: vars.control.lg, padding: `0 ${vars.space.lg}`, fontSize: vars.font.size.lg },
});

/** Square buttons: the icon is the content, so width equals height (≥ 24 px target, WCAG 2.5.8). */
export const iconSize = styleVariants({
  sm: { width: vars.control.sm, minHeight: vars.control.sm, padding: 0 },
  md: { width: vars.control.md, minHeight: vars.control.md, padding: 0 },
  lg: { width: vars.control.lg, minHeight: vars.control.lg, padding: 0 },
});

export const fullWidth = style({ width: '100%' });

/** Keeps the label's width while the spinner shows, so the button does not jump. */
export const label = style({ overflow: 'hidden', textOverflow: 'ellipsis' });
