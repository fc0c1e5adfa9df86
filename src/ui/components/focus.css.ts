import { vars } from '../theme.css';

/**
 * The one focus indicator: a 2 px outline in `vars.color.focus` (≥ 3:1 on every surface), offset so
 * it never hides in the control's own border. RAC sets `data-focus-visible` only for keyboard focus,
 * so mouse users do not see rings on click while keyboard users always do.
 */
export const focusRing = {
  outline: `${vars.focusRing.width} solid ${vars.color.focus}`,
  outlineOffset: vars.focusRing.offset,
} as const;

/** Hides the ring until RAC reports keyboard focus; spread into a `style()` with its own selectors. */
export const focusRingSelectors = {
  '&[data-focus-visible]': focusRing,
} as const;

/** For plain elements (not RAC) that receive focus, e.g. a scrollable region. */
export const nativeFocusRingSelectors = {
  '&:focus-visible': focusRing,
} as const;
