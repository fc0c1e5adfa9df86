import { style } from '@vanilla-extract/css';
import { vars } from '../../../theme.css';

export const panel = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md, minWidth: 0 });

export const intro = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const note = style({
  margin: 0,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.infoSurface,
  color: vars.color.text,
  fontSize: vars.font.size.sm,
});

export const tab = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.md,
  minWidth: 0,
  paddingTop: vars.space.md,
});

/** The period grows; the other filters keep a readable width and wrap below on phones. */
export const filters = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'flex-start',
  gap: vars.space.md,
  minWidth: 0,
});

export const range = style({ flex: '1 1 18rem', minWidth: 0, maxWidth: '26rem' });

export const filter = style({ flex: '1 1 12rem', minWidth: 0, maxWidth: '18rem' });

// The sheet's download row is laid out like the download status beside it (src/ui/components/reports).
export { actions, count } from '../../../components/reports/download-status.css';
