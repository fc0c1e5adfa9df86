import { globalStyle, style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { actions as formActions } from './form.css';

/**
 * Every overlay is a `<dialog>` (dialog.tsx); opened with showModal() it sits in the top layer.
 * On each of them the browser's border, padding, colours and max sizes go, at zero specificity
 * (`:where`), so the looks below and popover.css.ts's win whatever the CSS order.
 */
const overlay = style({});
globalStyle(`:where(${overlay})`, {
  padding: 0,
  border: 'none',
  maxWidth: 'none',
  maxHeight: 'none',
  color: 'inherit',
  backgroundColor: 'transparent',
});

/** The page behind a modal does not scroll (as React Aria's `ModalOverlay` did). */
globalStyle('html:has(dialog[data-scroll-lock]:modal)', { overflow: 'hidden' });

/** A centred modal dialog (Modal, ConfirmDialog) over a dimmed page, never wider or taller than the screen. */
export const modal = style([
  overlay,
  {
    display: 'flex',
    flexDirection: 'column',
    margin: 'auto',
    width: `calc(100% - 2 * ${vars.space.md})`,
    maxHeight: `calc(100% - 2 * ${vars.space.md})`,
    backgroundColor: vars.color.surfaceRaised,
    color: vars.color.text,
    border: `1px solid ${vars.color.borderSubtle}`,
    borderRadius: vars.radius.lg,
    boxShadow: vars.shadow.lg,
    outline: 'none',
    '::backdrop': { backgroundColor: vars.color.backdrop },
  },
]);

export const size = styleVariants({
  sm: { maxWidth: '26rem' },
  md: { maxWidth: '36rem' },
  lg: { maxWidth: '52rem' },
});

export const header = style({
  display: 'flex',
  alignItems: 'flex-start',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  padding: `${vars.space.md} ${vars.space.md} 0`,
});

export const title = style({
  margin: 0,
  fontSize: vars.font.size.lg,
  fontWeight: vars.font.weight.bold,
  lineHeight: vars.font.lineHeight.tight,
});

/** The body scrolls on its own so header and footer stay visible on a 768 px-tall screen. */
export const body = style({ flex: 1, minHeight: 0, overflowY: 'auto', padding: vars.space.md });

/**
 * A form's actions at the end of a dialog's body stay in view while the body scrolls (the new company's
 * form on a phone is taller than the screen), on the dialog's own background. The padding and the
 * negative margin cancel out: a body that does not scroll lays out as before.
 */
globalStyle(`${body} ${formActions}`, {
  position: 'sticky',
  bottom: `calc(-1 * ${vars.space.md})`,
  zIndex: 1,
  marginBottom: `calc(-1 * ${vars.space.md})`,
  paddingBottom: vars.space.md,
  backgroundColor: vars.color.surfaceRaised,
});

export const footer = style({
  display: 'flex',
  flexWrap: 'wrap',
  justifyContent: 'flex-end',
  gap: vars.space.sm,
  padding: `0 ${vars.space.md} ${vars.space.md}`,
});

export const message = style({ margin: 0, color: vars.color.text });

/**
 * A Modal's layer, where React Aria's popovers and the toast region render while it is open
 * (dialog-portal.tsx): a fixed box over the whole screen, so they are placed as they were under
 * `<body>` and the dialog's own overflow does not clip them. It takes no clicks itself; what it
 * holds does.
 */
export const layer = style({ position: 'fixed', inset: 0, zIndex: vars.zIndex.popover, pointerEvents: 'none' });
globalStyle(`${layer} > *`, { pointerEvents: 'auto' });

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
