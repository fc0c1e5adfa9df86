import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

/*
 * Parts of the native controls that have no file of their own: the menu's items (menu.tsx), the
 * hidden inputs of `Switch` and `RadioGroup`, and the list of `ComboBox`.
 */

/**
 * A native menu item (`<button>` or `<a>` with role menuitem) on popover.css.ts's `item` look:
 * focus (keyboard or pointer, the menu moves it) marks the current item, the ring only for keys.
 */
export const menuItem = style({
  width: '100%',
  border: 'none',
  background: 'transparent',
  color: 'inherit',
  font: 'inherit',
  textAlign: 'start',
  textDecoration: 'none',
  selectors: {
    '&:focus': { backgroundColor: vars.color.surfaceHover },
    '&:focus-visible': { outline: `${vars.focusRing.width} solid ${vars.color.focus}`, outlineOffset: '-2px' },
    '&[aria-disabled="true"]': { color: vars.color.textMuted, cursor: 'not-allowed' },
  },
  '@media': {
    '(hover: hover)': {
      selectors: { '&:hover:not([aria-disabled="true"])': { backgroundColor: vars.color.surfaceHover } },
    },
  },
});

/** The label row of a native radio or switch (toggle.css.ts's `row`), holding the hidden input. */
export const toggleRow = style({ position: 'relative' });

/** Text for screen readers only (a label the layout shows by other means). */
export const srOnly = style({
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
  border: 0,
});

/** The real input of a native radio or switch: invisible but focusable and read; the indicator shows it. */
export const toggleInput = style([srOnly, { opacity: 0 }]);

/** The indicator's keyboard focus ring, from the hidden input (RAC's `data-focus-visible` twin). */
export const toggleIndicator = style({
  selectors: {
    [`${toggleRow}:has(input:focus-visible) &`]: {
      outline: `${vars.focusRing.width} solid ${vars.color.focus}`,
      outlineOffset: vars.focusRing.offset,
    },
  },
});

/** The native combo box: its list hangs under the whole field. */
export const comboField = style({ position: 'relative' });

/** The list under a native combo box (popover.css.ts's surface, placed by CSS instead of React Aria). */
export const comboPopup = style({
  // popover.css.ts's surface is at least as wide as its trigger: here the whole field.
  vars: { '--trigger-width': '100%' },
  position: 'absolute',
  top: `calc(100% + ${vars.space.xs})`,
  insetInlineStart: 0,
  minWidth: '100%',
});

/** An option of the native combo box: the one the arrows reached looks focused (focus stays in the input). */
export const comboOption = style({
  selectors: {
    '&[aria-selected="true"]': { backgroundColor: vars.color.selected, fontWeight: vars.font.weight.medium },
    '&[data-active]': { backgroundColor: vars.color.surfaceHover },
    '&[data-active="key"]': { outline: `${vars.focusRing.width} solid ${vars.color.focus}`, outlineOffset: '-2px' },
  },
});
