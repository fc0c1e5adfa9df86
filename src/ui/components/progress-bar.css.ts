import { keyframes, style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../theme.css';

export const root = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs, minWidth: 0, width: '100%' });

export const labels = style({
  display: 'flex',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  fontSize: vars.font.size.sm,
});

export const value = style({ color: vars.color.textMuted, fontVariantNumeric: 'tabular-nums' });

/** The track has a border so its extent is visible (≥ 3:1) even when empty. */
export const track = style({
  position: 'relative',
  height: '0.5rem',
  overflow: 'hidden',
  borderRadius: vars.radius.pill,
  border: `1px solid ${vars.color.border}`,
  backgroundColor: vars.color.surface,
});

const slide = keyframes({ from: { transform: 'translateX(-100%)' }, to: { transform: 'translateX(250%)' } });

export const fill = style({
  height: '100%',
  borderRadius: vars.radius.pill,
  transition: `width ${vars.duration.normal}`,
});

export const tone = styleVariants({
  primary: { backgroundColor: vars.color.primary },
  success: { backgroundColor: vars.color.success },
  danger: { backgroundColor: vars.color.danger },
});

export const indeterminate = style({ width: '40%', animation: `${slide} 1.2s ease-in-out infinite` });
