import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../ui/theme.css';

globalStyle('html, body', {
  margin: 0,
  padding: 0,
});

export const root = style({
  minHeight: '100vh',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  backgroundColor: vars.color.background,
  color: vars.color.text,
  fontFamily: vars.font.family,
  fontSize: vars.font.size.md,
  lineHeight: 1.5,
});

export const main = style({
  maxWidth: '40rem',
  margin: vars.space.lg,
  padding: vars.space.xl,
  backgroundColor: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
});

export const heading = style({
  margin: 0,
  fontSize: vars.font.size.xxl,
  lineHeight: 1.2,
});

export const tagline = style({
  margin: `${vars.space.sm} 0 0`,
  color: vars.color.textMuted,
  fontSize: vars.font.size.lg,
});
