import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { focusRing } from './focus.css';

/** Shared by Checkbox, Radio and Switch: the label row holding the indicator and its text. */
export const row = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.sm,
  minHeight: vars.control.sm,
  color: vars.color.text,
  fontSize: vars.font.size.md,
  cursor: 'pointer',
  selectors: {
    '&[data-disabled]': { cursor: 'not-allowed', color: vars.color.textMuted },
  },
});

const indicatorBase = {
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  flexShrink: 0,
  border: `2px solid ${vars.color.border}`,
  backgroundColor: vars.color.background,
  color: vars.color.primaryText,
  transition: `background-color ${vars.duration.fast}, border-color ${vars.duration.fast}`,
} as const;

/** The checkbox square; the check/minus icon inside shows only when selected/indeterminate. */
export const box = style({
  ...indicatorBase,
  width: '1.25rem',
  height: '1.25rem',
  borderRadius: vars.radius.sm,
  selectors: {
    [`${row}[data-selected] &, ${row}[data-indeterminate] &`]: {
      backgroundColor: vars.color.primary,
      borderColor: vars.color.primary,
    },
    [`${row}[data-focus-visible] &`]: focusRing,
    [`${row}[data-invalid] &`]: { borderColor: vars.color.danger },
    [`${row}[data-hovered]:not([data-selected]) &`]: { borderColor: vars.color.text },
    // Disabled reads as such at a glance, checked or not (the label is muted too): a box nobody may change.
    [`${row}[data-disabled] &`]: { opacity: 0.5 },
  },
});

export const radio = style({
  ...indicatorBase,
  width: '1.25rem',
  height: '1.25rem',
  borderRadius: '50%',
  selectors: {
    // The selected radio keeps a ring plus a filled dot: shape, not only colour, tells the state.
    [`${row}[data-selected] &`]: { borderColor: vars.color.primary, borderWidth: '6px' },
    [`${row}[data-focus-visible] &`]: focusRing,
    [`${row}[data-invalid] &`]: { borderColor: vars.color.danger },
  },
});

export const track = style({
  ...indicatorBase,
  justifyContent: 'flex-start',
  width: '2.5rem',
  height: '1.5rem',
  padding: '2px',
  borderRadius: vars.radius.pill,
  selectors: {
    [`${row}[data-selected] &`]: { backgroundColor: vars.color.primary, borderColor: vars.color.primary },
    [`${row}[data-focus-visible] &`]: focusRing,
  },
});

export const thumb = style({
  width: '1rem',
  height: '1rem',
  borderRadius: '50%',
  backgroundColor: vars.color.border,
  transition: `transform ${vars.duration.fast}`,
  selectors: {
    [`${row}[data-selected] &`]: { transform: 'translateX(1rem)', backgroundColor: vars.color.primaryText },
  },
});

export const group = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs, minWidth: 0 });

export const options = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.xxs,
  selectors: {
    '[data-orientation="horizontal"] > &': { flexDirection: 'row', flexWrap: 'wrap', columnGap: vars.space.md },
  },
});
