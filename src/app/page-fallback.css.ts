import { style } from '@vanilla-extract/css';
import { vars } from '../ui/theme.css';

export const fallback = style({
  display: 'grid',
  placeItems: 'center',
  minHeight: '40vh',
  padding: vars.space.xl,
});
