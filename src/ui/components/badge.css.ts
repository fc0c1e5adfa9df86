import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../theme.css';

/** Text stays `vars.color.text` on the tinted surface (≥ 4.5:1); the tone shows in border and dot. */
export const badge = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.xs,
  maxWidth: '100%',
  padding: `${vars.space.xxs} ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  border: '1px solid',
  fontSize: vars.font.size.xs,
  fontWeight: vars.font.weight.medium,
  lineHeight: vars.font.lineHeight.normal,
  color: vars.color.text,
  whiteSpace: 'nowrap',
});

export const tone = styleVariants({
  neutral: { backgroundColor: vars.color.surface, borderColor: vars.color.border },
  success: { backgroundColor: vars.color.successSurface, borderColor: vars.color.success },
  warning: { backgroundColor: vars.color.warningSurface, borderColor: vars.color.warning },
  danger: { backgroundColor: vars.color.dangerSurface, borderColor: vars.color.danger },
  info: { backgroundColor: vars.color.infoSurface, borderColor: vars.color.info },
});

export const status = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.xs,
  fontSize: vars.font.size.sm,
  color: vars.color.text,
});

/** Each state also has its own shape: filled (on), ring (in progress), hollow (off). */
export const dot = style({
  display: 'inline-block',
  flexShrink: 0,
  width: '0.625rem',
  height: '0.625rem',
  borderRadius: '50%',
  border: '2px solid',
});

export const dotShape = styleVariants({
  on: { backgroundColor: 'currentColor' },
  pending: { borderStyle: 'dashed', backgroundColor: 'transparent' },
  off: { backgroundColor: 'transparent' },
});

export const dotTone = styleVariants({
  neutral: { color: vars.color.textMuted },
  success: { color: vars.color.success },
  warning: { color: vars.color.warning },
  danger: { color: vars.color.danger },
  info: { color: vars.color.info },
});
