import { keyframes, style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

const slide = keyframes({ '0%': { transform: 'translateX(-100%)' }, '100%': { transform: 'translateX(300%)' } });
const appear = keyframes({ to: { opacity: 1 } });

/** The delay before the bar shows: requests faster than this never flash it. */
export const SHOW_AFTER = '250ms';

export const track = style({ position: 'relative', height: 3, overflow: 'hidden' });
export const bar = style({
  position: 'absolute',
  insetBlock: 0,
  width: '33%',
  opacity: 0,
  backgroundColor: vars.color.primary,
  animation: `${appear} 0s ${SHOW_AFTER} forwards, ${slide} 1.1s ease-in-out ${SHOW_AFTER} infinite`,
  '@media': { '(prefers-reduced-motion: reduce)': { animation: `${appear} 0s ${SHOW_AFTER} forwards`, width: '100%' } },
});
