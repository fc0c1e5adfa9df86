import { style } from '@vanilla-extract/css';
import { vars } from '../../theme.css';

/** The views menu and the column chooser, at the end of the row above a list's table; they wrap on phones. */
export const bar = style({
  display: 'flex',
  flexWrap: 'wrap',
  justifyContent: 'flex-end',
  alignItems: 'center',
  gap: vars.space.sm,
});

export const chooser = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  padding: vars.space.md,
  minWidth: '14rem',
  maxWidth: 'min(20rem, calc(100vw - 2rem))',
});

export const chooserTitle = style({
  margin: 0,
  fontSize: vars.font.size.sm,
  fontWeight: vars.font.weight.medium,
});
