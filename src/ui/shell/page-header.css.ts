import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

export const header = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, marginBottom: vars.space.lg });
export const title = style({ margin: 0, fontSize: vars.font.size.xxl, lineHeight: 1.2 });
export const starOn = style({ fill: vars.color.warning, stroke: vars.color.warning });
