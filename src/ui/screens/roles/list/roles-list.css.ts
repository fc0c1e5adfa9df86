import { style } from '@vanilla-extract/css';
import { vars } from '../../../theme.css';

export const intro = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm, flex: '1 1 16rem' });

export const nameCell = style({ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.sm });

export const code = style({ fontFamily: vars.font.mono, fontSize: vars.font.size.sm });

export const actions = style({ display: 'flex', flexWrap: 'nowrap', gap: vars.space.sm, justifyContent: 'flex-end' });

/** Why a delete was refused, under the question of the confirmation (contrast as the form's error). */
export const deleteError = style({
  display: 'block',
  marginTop: vars.space.md,
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.danger}`,
  backgroundColor: vars.color.dangerSurface,
  color: vars.color.text,
});

/** Why the list offers no changes (not back-office staff): the role editor's note, same look. */
export const notice = style({
  margin: 0,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.infoSurface,
  color: vars.color.text,
  borderLeft: `4px solid ${vars.color.info}`,
});
