import { style } from '@vanilla-extract/css';
import { nativeSelect, nativeSelectIcon } from './native-select.css';

/** ./filter-select.tsx: the native select full width in its box, the chevron over its end. */
export const selectBox = style({ position: 'relative', display: 'flex', alignItems: 'center' });

export const select = style([nativeSelect, { width: '100%' }]);

export const selectIcon = nativeSelectIcon;
