import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../theme.css';

export const root = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs, minWidth: 0, width: '100%' });

export const labels = style({
  display: 'flex',
  justifyContent: 'space-between',
  flexWrap: 'wrap',
  gap: vars.space.sm,
  fontSize: vars.font.size.sm,
});

/** The level in words, bold, in body text colour: the colour of the bar is never the only cue. */
export const level = style({ fontWeight: vars.font.weight.bold, color: vars.color.text });

/** Three segments (fraca, média, forte): the count filled is a second, colour-free cue. */
export const track = style({ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: vars.space.xxs });

/** Empty segments keep a visible border (≥ 3:1) so the scale's extent shows before typing. */
export const segment = style({
  height: '0.5rem',
  borderRadius: vars.radius.pill,
  border: `1px solid ${vars.color.border}`,
  backgroundColor: vars.color.surface,
  transition: `background-color ${vars.duration.normal}`,
});

export const filled = styleVariants({
  weak: { backgroundColor: vars.color.danger, borderColor: vars.color.danger },
  medium: { backgroundColor: vars.color.warning, borderColor: vars.color.warning },
  strong: { backgroundColor: vars.color.success, borderColor: vars.color.success },
});
