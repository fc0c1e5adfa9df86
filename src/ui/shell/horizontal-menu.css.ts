import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

export const bar = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.xxs,
  padding: `${vars.space.xs} ${vars.space.md}`,
  backgroundColor: vars.color.surface,
  borderBottom: `1px solid ${vars.color.borderSubtle}`,
});

/** A section's button: its name and chevron on one line (the chevron wrapped under the name). */
export const trigger = style({ whiteSpace: 'nowrap' });
globalStyle(`${trigger} > span`, { display: 'inline-flex', alignItems: 'center', gap: vars.space.xxs });

export const active = style({ backgroundColor: vars.color.selected });
