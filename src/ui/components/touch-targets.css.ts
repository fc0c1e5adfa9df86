import { globalStyle, style } from '@vanilla-extract/css';

/** A phone's width or a touch screen: where a control must be a 44 × 44 px target (WCAG 2.5.5). */
export const TOUCH_MEDIA = '(max-width: 36rem), (pointer: coarse)';

/**
 * A group of row or card actions (the buttons of a list item, a pager): on a phone or a touch screen
 * each button and link in it is at least 44 × 44 px, whatever size it asked for. The rows of a
 * DataTable get the same through table.css.ts's card layout.
 */
export const touchTargets = style({});

globalStyle(`${touchTargets} :is(button, a[href], select)`, {
  '@media': { [TOUCH_MEDIA]: { minHeight: '2.75rem', minWidth: '2.75rem' } },
});
