import { keyframes, style, styleVariants } from '@vanilla-extract/css';

const spin = keyframes({ to: { transform: 'rotate(360deg)' } });

export const spinner = style({
  display: 'inline-block',
  flexShrink: 0,
  borderRadius: '50%',
  // currentColor: the spinner takes the text colour of whatever holds it (button, overlay, table).
  border: '2px solid currentColor',
  borderRightColor: 'transparent',
  animation: `${spin} 0.75s linear infinite`,
});

export const size = styleVariants({
  sm: { width: '0.875rem', height: '0.875rem' },
  md: { width: '1.25rem', height: '1.25rem' },
  lg: { width: '2rem', height: '2rem', borderWidth: '3px' },
});

export const wrapper = style({ display: 'inline-flex', alignItems: 'center', justifyContent: 'center' });
