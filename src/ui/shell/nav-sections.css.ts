import { style } from '@vanilla-extract/css';
import { nativeFocusRingSelectors } from '../components/focus.css';
import { vars } from '../theme.css';

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

export const sections = style({ display: 'grid', gap: vars.space.md, padding: `${vars.space.sm} 0` });
export const section = style({ display: 'grid', gap: vars.space.xxs });
export const heading = style({
  margin: `0 ${vars.space.md}`,
  fontSize: vars.font.size.xs,
  fontWeight: 600,
  letterSpacing: '0.04em',
  textTransform: 'uppercase',
  color: vars.color.textMuted,
});
export const hiddenHeading = style(visuallyHidden);
export const hiddenLabel = style(visuallyHidden);
export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: vars.space.xxs });
export const link = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  minHeight: vars.control.md,
  margin: `0 ${vars.space.sm}`,
  padding: `0 ${vars.space.sm}`,
  borderRadius: vars.radius.md,
  color: vars.color.text,
  textDecoration: 'none',
  outline: 'none',
  selectors: {
    ...nativeFocusRingSelectors,
    '&:hover': { backgroundColor: vars.color.surfaceHover },
    '&[aria-current="page"]': { backgroundColor: vars.color.selected, fontWeight: 600 },
  },
});
