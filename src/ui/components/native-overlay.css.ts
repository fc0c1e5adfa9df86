import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import * as dialogStyles from './dialog.css';

/**
 * A `<dialog>` opened with showModal() (native-overlay.tsx) sits in the top layer, centred by the
 * browser's own styles. On every overlay `<dialog>` the browser's border, padding, colours and max
 * sizes go, at zero specificity (`:where`), so the shared looks of dialog.css.ts and popover.css.ts
 * win whatever the CSS order.
 */
export const overlay = style({});
globalStyle(`:where(${overlay})`, {
  padding: 0,
  border: 'none',
  maxWidth: 'none',
  maxHeight: 'none',
  color: 'inherit',
  backgroundColor: 'transparent',
});

/** The page behind a modal does not scroll (as React Aria's `ModalOverlay`). */
globalStyle('html:has(dialog[data-scroll-lock]:modal)', { overflow: 'hidden' });

/** A centred modal dialog: dialog.css.ts's modal box, with its overlay's backdrop colour. */
export const modal = style([
  overlay,
  dialogStyles.modal,
  {
    margin: 'auto',
    width: `calc(100% - 2 * ${vars.space.md})`,
    maxHeight: `calc(100% - 2 * ${vars.space.md})`,
    border: `1px solid ${vars.color.borderSubtle}`,
    '::backdrop': { backgroundColor: vars.color.backdrop },
  },
]);

/** The menu-drawer: full height at the inline start. */
export const drawer = style([
  overlay,
  {
    margin: 0,
    insetBlock: 0,
    insetInlineStart: 0,
    insetInlineEnd: 'auto',
    height: '100%',
    color: vars.color.text,
    '::backdrop': { backgroundColor: vars.color.backdrop },
  },
]);

/**
 * A popover anchored to its trigger (menus, the activity feed): placed by inline `top` and
 * `left`/`right`; the backdrop is transparent, a click on it closes the popover.
 */
export const popover = style([
  overlay,
  {
    position: 'fixed',
    margin: 0,
    inset: 'auto',
    '::backdrop': { backgroundColor: 'transparent' },
  },
]);

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
