import { style } from '@vanilla-extract/css';
import { vars } from '../../theme.css';

export const stack = style({ display: 'grid', gap: vars.space.sm });

export const text = style({ margin: 0 });

export const muted = style({ margin: 0, color: vars.color.textMuted });

export { qrCode as qr } from '../../components/qr-code.css';

export const mono = style({
  fontFamily: vars.font.mono,
  overflowWrap: 'anywhere',
  userSelect: 'all',
});

export const warning = style({
  margin: 0,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.warningSurface,
  borderLeft: `4px solid ${vars.color.warning}`,
  color: vars.color.text,
});

export const codes = style({
  margin: 0,
  padding: vars.space.md,
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 8rem), 1fr))',
  gap: `${vars.space.sm} ${vars.space.lg}`,
  listStylePosition: 'inside',
  fontFamily: vars.font.mono,
});

export const check = style({ display: 'flex', gap: vars.space.sm, alignItems: 'center' });
