import { style } from '@vanilla-extract/css';
import { vars } from '../../theme.css';

/** The notice of a report cut at its row limit, with the full download below its text. */
export const cut = style({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'flex-start',
  gap: vars.space.sm,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.infoSurface,
  color: vars.color.text,
  fontSize: vars.font.size.sm,
  minWidth: 0,
});

export const text = style({ margin: 0, maxWidth: '70ch' });

/** The progress of the full download spans the notice. */
export const status = style({ alignSelf: 'stretch' });
