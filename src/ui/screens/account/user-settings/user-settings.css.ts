import { style } from '@vanilla-extract/css';
import { vars } from '../../../theme.css';

export const muted = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const notice = style({
  margin: 0,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.infoSurface,
  borderLeft: `4px solid ${vars.color.info}`,
  color: vars.color.text,
});

export const facts = style({
  margin: 0,
  display: 'grid',
  gridTemplateColumns: 'max-content minmax(0, 1fr)',
  gap: `${vars.space.xs} ${vars.space.md}`,
  fontSize: vars.font.size.sm,
});

export const factName = style({ color: vars.color.textMuted });

export const factValue = style({ margin: 0, overflowWrap: 'anywhere' });

/** Forms stay a comfortable reading width on wide screens. */
export const form = style({ maxWidth: '32rem' });
