import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

export const stack = style({ display: 'grid', gap: vars.space.sm, minWidth: 0 });

export const text = style({ margin: 0 });

export const muted = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const warning = style({
  margin: 0,
  display: 'flex',
  alignItems: 'flex-start',
  gap: vars.space.sm,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.warningSurface,
  borderLeft: `4px solid ${vars.color.warning}`,
  color: vars.color.text,
});

export const warningIcon = style({ flexShrink: 0, marginTop: '0.15em', color: vars.color.warning });

export const steps = style({
  margin: 0,
  paddingLeft: vars.space.lg,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.lg,
});

export const step = style({ display: 'flex', flexDirection: 'column', gap: vars.space.sm, minWidth: 0 });

export { qrCode as qr } from './qr-code.css';

export const secretRow = style({
  margin: 0,
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  minWidth: 0,
});

export const mono = style({
  fontFamily: vars.font.mono,
  fontSize: vars.font.size.md,
  letterSpacing: '0.05em',
  overflowWrap: 'anywhere',
  wordBreak: 'break-all',
  userSelect: 'all',
  minWidth: 0,
});

export const uri = style({
  fontFamily: vars.font.mono,
  fontSize: vars.font.size.xs,
  overflowWrap: 'anywhere',
  wordBreak: 'break-all',
  color: vars.color.textMuted,
  margin: 0,
});

export const details = style({ margin: 0, display: 'flex', flexDirection: 'column', gap: vars.space.sm, minWidth: 0 });

export const codes = style({
  margin: 0,
  padding: vars.space.md,
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 9rem), 1fr))',
  gap: `${vars.space.sm} ${vars.space.lg}`,
  listStylePosition: 'inside',
  backgroundColor: vars.color.surface,
  borderRadius: vars.radius.md,
  fontFamily: vars.font.mono,
  fontSize: vars.font.size.md,
});

export const check = style({ display: 'flex', gap: vars.space.sm, alignItems: 'center' });
