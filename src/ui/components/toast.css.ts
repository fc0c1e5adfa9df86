import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { focusRing } from './focus.css';

/** Bottom-right stack; full width minus margins on phones (390 px). */
export const region = style({
  position: 'fixed',
  insetBlockEnd: vars.space.md,
  insetInlineEnd: vars.space.md,
  zIndex: vars.zIndex.toast,
  display: 'flex',
  flexDirection: 'column-reverse',
  gap: vars.space.sm,
  width: 'min(24rem, calc(100vw - 2rem))',
  outline: 'none',
  selectors: { '&[data-focus-visible]': focusRing },
});

export const toast = style({
  display: 'flex',
  alignItems: 'flex-start',
  gap: vars.space.sm,
  padding: vars.space.sm,
  paddingInlineStart: vars.space.md,
  borderRadius: vars.radius.md,
  // A thick start border in the variant colour, plus its icon and a spoken variant word.
  borderInlineStart: '4px solid',
  backgroundColor: vars.color.surfaceRaised,
  color: vars.color.text,
  boxShadow: vars.shadow.lg,
  outline: 'none',
  selectors: { '&[data-focus-visible]': focusRing },
});

export const variant = styleVariants({
  success: { borderInlineStartColor: vars.color.success },
  error: { borderInlineStartColor: vars.color.danger },
  info: { borderInlineStartColor: vars.color.info },
});

export const icon = styleVariants({
  success: { color: vars.color.success, flexShrink: 0, marginTop: '0.15rem' },
  error: { color: vars.color.danger, flexShrink: 0, marginTop: '0.15rem' },
  info: { color: vars.color.info, flexShrink: 0, marginTop: '0.15rem' },
});

export const content = style({ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: vars.space.xxs });

export const title = style({ fontWeight: vars.font.weight.bold });

export const description = style({ fontSize: vars.font.size.sm, color: vars.color.textMuted });
