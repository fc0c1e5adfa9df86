import { keyframes, style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../theme.css';

const fadeIn = keyframes({ from: { opacity: 0 }, to: { opacity: 1 } });

export const overlay = style({
  position: 'fixed',
  inset: 0,
  zIndex: vars.zIndex.modal,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  // Height from RAC's --visual-viewport-height so the on-screen keyboard does not hide the dialog.
  height: 'var(--visual-viewport-height, 100vh)',
  padding: vars.space.md,
  backgroundColor: vars.color.backdrop,
  selectors: { '&[data-entering]': { animation: `${fadeIn} ${vars.duration.normal}` } },
});

export const modal = style({
  display: 'flex',
  flexDirection: 'column',
  width: '100%',
  maxHeight: '100%',
  backgroundColor: vars.color.surfaceRaised,
  color: vars.color.text,
  border: `1px solid ${vars.color.borderSubtle}`,
  borderRadius: vars.radius.lg,
  boxShadow: vars.shadow.lg,
  outline: 'none',
});

export const size = styleVariants({
  sm: { maxWidth: '26rem' },
  md: { maxWidth: '36rem' },
  lg: { maxWidth: '52rem' },
});

export const dialog = style({ display: 'flex', flexDirection: 'column', minHeight: 0, outline: 'none' });

export const header = style({
  display: 'flex',
  alignItems: 'flex-start',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  padding: `${vars.space.md} ${vars.space.md} 0`,
});

export const title = style({
  margin: 0,
  fontSize: vars.font.size.lg,
  fontWeight: vars.font.weight.bold,
  lineHeight: vars.font.lineHeight.tight,
});

/** The body scrolls on its own so header and footer stay visible on a 768 px-tall screen. */
export const body = style({ flex: 1, minHeight: 0, overflowY: 'auto', padding: vars.space.md });

export const footer = style({
  display: 'flex',
  flexWrap: 'wrap',
  justifyContent: 'flex-end',
  gap: vars.space.sm,
  padding: `0 ${vars.space.md} ${vars.space.md}`,
});

export const message = style({ margin: 0, color: vars.color.text });
