import { style } from '@vanilla-extract/css';
import { nativeFocusRingSelectors } from '../components/focus.css';
import { vars } from '../theme.css';

export const wrapper = style({ display: 'inline-flex', alignItems: 'center', gap: vars.space.xs });

/** The label stays for screen readers; the globe-less select shows the language itself. */
export const label = style({
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
});

export const select = style({
  minHeight: vars.control.sm,
  maxWidth: '11rem',
  padding: `0 ${vars.space.sm}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.background,
  color: vars.color.text,
  fontSize: vars.font.size.sm,
  cursor: 'pointer',
  outline: 'none',
  selectors: nativeFocusRingSelectors,
});
