import { style } from '@vanilla-extract/css';

/**
 * Every icon keeps its size in a flex row (a tile, a sort header, a button): the text beside it
 * wraps or shrinks, the icon never does.
 */
export const icon = style({ flexShrink: 0 });
