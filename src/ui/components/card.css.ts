import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../theme.css';

export const card = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.md,
  minWidth: 0,
  padding: vars.space.md,
  backgroundColor: vars.color.background,
  color: vars.color.text,
  border: `1px solid ${vars.color.borderSubtle}`,
  borderRadius: vars.radius.lg,
  boxShadow: vars.shadow.sm,
});

export const header = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
});

export const title = style({
  margin: 0,
  fontSize: vars.font.size.lg,
  fontWeight: vars.font.weight.bold,
  lineHeight: vars.font.lineHeight.tight,
});

export const kpiLabel = style({
  margin: 0,
  fontSize: vars.font.size.sm,
  color: vars.color.textMuted,
  fontWeight: vars.font.weight.medium,
});

export const kpiValue = style({
  margin: 0,
  // Large enough to scan, small enough that "R$ 123.456,78" fits a quarter of a 1366 px screen.
  fontSize: vars.font.size.xl,
  fontWeight: vars.font.weight.bold,
  lineHeight: vars.font.lineHeight.tight,
  fontVariantNumeric: 'tabular-nums',
  overflowWrap: 'break-word',
});

export const delta = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.xxs,
  fontSize: vars.font.size.sm,
  fontWeight: vars.font.weight.medium,
});

export const deltaTone = styleVariants({
  up: { color: vars.color.success },
  down: { color: vars.color.danger },
  flat: { color: vars.color.textMuted },
});

export const kpi = style({ gap: vars.space.xs });
