// NumberField draws with the shared field styles (field.css.ts); this file exists so every primitive
// has its stylesheet beside it, and holds the one rule that is NumberField's own.
import { style } from '@vanilla-extract/css';

/** Digits line up in columns of limits and counts. */
export const tabular = style({ fontVariantNumeric: 'tabular-nums' });
