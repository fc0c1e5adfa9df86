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

// Compact enough that every entry of the administrador fits a 1366×768 screen without scrolling
// (docs/panel.md, Navigation and pages inside the shell): 30 px rows (above the 24 px target size),
// small text, one line each.
export const sections = style({ display: 'grid', gap: vars.space.xs, padding: `0 0 ${vars.space.sm}` });
export const section = style({ display: 'grid', gap: 0 });
export const heading = style({
  margin: `0 ${vars.space.md}`,
  fontSize: vars.font.size.xs,
  fontWeight: 600,
  letterSpacing: '0.04em',
  textTransform: 'uppercase',
  color: vars.color.textMuted,
  lineHeight: 1.5,
});
export const hiddenHeading = style(visuallyHidden);
export const hiddenLabel = style(visuallyHidden);
export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 0 });
export const label = style({
  flex: 1,
  minWidth: 0,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
});
export const badge = style({
  flexShrink: 0,
  padding: `0 ${vars.space.xs}`,
  borderRadius: vars.radius.sm,
  border: `1px solid ${vars.color.border}`,
  fontSize: vars.font.size.xs,
  lineHeight: 1.5,
  color: vars.color.textMuted,
  whiteSpace: 'nowrap',
});
export const link = style({
  display: 'flex',
  // A grid item grows to its content by default: this keeps long labels to the sidebar's width.
  minWidth: 0,
  alignItems: 'center',
  gap: vars.space.sm,
  minHeight: '1.875rem',
  fontSize: vars.font.size.sm,
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
