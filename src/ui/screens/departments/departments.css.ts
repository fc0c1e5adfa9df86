import { style } from '@vanilla-extract/css';
import { vars } from '../../theme.css';

export const intro = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm, flex: '1 1 16rem' });

export const actions = style({ display: 'flex', flexWrap: 'nowrap', gap: vars.space.sm, justifyContent: 'flex-end' });
