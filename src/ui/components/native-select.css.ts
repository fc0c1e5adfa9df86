import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { focusRing } from './focus.css';

/**
 * A native `<select>` with the look of select.tsx's trigger (popover.css.ts): the browser's own arrow
 * hidden, room at the end for {@link nativeSelectIcon}. Each use sets its width (the page-size select
 * of pagination.css.ts, the list filters of ./filter-select.css.ts).
 */
export const nativeSelect = style({
  appearance: 'none',
  minHeight: vars.control.md,
  paddingBlock: 0,
  paddingInlineStart: vars.space.sm,
  paddingInlineEnd: `calc(${vars.space.sm} + 1.25rem)`,
  backgroundColor: vars.color.background,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  fontSize: vars.font.size.md,
  fontFamily: 'inherit',
  cursor: 'pointer',
  outline: 'none',
  selectors: {
    '&:focus-visible': focusRing,
    '&:disabled': { backgroundColor: vars.color.surface, color: vars.color.textMuted, cursor: 'not-allowed' },
  },
  '@media': {
    '(hover: hover)': { selectors: { '&:hover:not(:disabled)': { backgroundColor: vars.color.surfaceHover } } },
  },
});

/** The chevron over the end of a {@link nativeSelect} (the same chevron as select.tsx's). */
export const nativeSelectIcon = style({
  position: 'absolute',
  insetInlineEnd: vars.space.sm,
  pointerEvents: 'none',
  color: vars.color.text,
});
