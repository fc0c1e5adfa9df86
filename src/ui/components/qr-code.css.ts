import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

/**
 * A TOTP QR code (the /two-factor screen and enrolment at sign-in): white behind it in both themes,
 * since scanners need dark modules on a light quiet zone.
 */
export const qrCode = style({
  display: 'block',
  width: '12rem',
  maxWidth: '100%',
  height: 'auto',
  padding: vars.space.sm,
  backgroundColor: '#ffffff',
  border: `1px solid ${vars.color.borderSubtle}`,
  borderRadius: vars.radius.md,
});
