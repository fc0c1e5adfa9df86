import { style } from '@vanilla-extract/css';
import { nativeSelect, nativeSelectIcon } from '../components/native-select.css';
import { vars } from '../theme.css';

export const wrapper = style({ display: 'inline-flex', alignItems: 'center', gap: vars.space.xs });

/** The label stays for screen readers; the globe-less select shows the language itself. */
export const label = style({
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
});

/** The select and its chevron: the shared native select (theme colours in light and dark, not the platform's grey). */
export const selectBox = style({ position: 'relative', display: 'inline-flex', alignItems: 'center' });

export const select = style([
  nativeSelect,
  { minHeight: vars.control.sm, maxWidth: '11rem', fontSize: vars.font.size.sm },
]);

export const selectIcon = nativeSelectIcon;
