import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

export const shell = style({
  display: 'flex',
  minHeight: '100vh',
  backgroundColor: vars.color.background,
  color: vars.color.text,
});

export const skip = style({
  position: 'absolute',
  insetInlineStart: vars.space.sm,
  top: '-4rem',
  zIndex: 200,
  padding: `${vars.space.sm} ${vars.space.md}`,
  backgroundColor: vars.color.primary,
  color: vars.color.primaryText,
  borderRadius: vars.radius.md,
  selectors: { '&:focus': { top: vars.space.sm } },
});

const sidebarBase = {
  position: 'sticky',
  top: 0,
  height: '100vh',
  flexShrink: 0,
  overflowY: 'auto',
  backgroundColor: vars.color.surface,
  borderInlineEnd: `1px solid ${vars.color.borderSubtle}`,
} as const;

// Wide enough for every entry's label and badge on one line (docs/panel.md).
export const sidebar = style({ ...sidebarBase, width: '18rem' });
export const sidebarCollapsed = style({ ...sidebarBase, width: '4.5rem' });

export const brand = style({
  margin: 0,
  padding: `${vars.space.sm} ${vars.space.md}`,
  fontWeight: 700,
  fontSize: vars.font.size.lg,
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
});

export const column = style({ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' });

export const main = style({
  flex: 1,
  padding: vars.space.lg,
  outline: 'none',
  '@media': { 'screen and (max-width: 30rem)': { padding: vars.space.md } },
});
export const mainBoxed = style([main, { width: '100%', maxWidth: '80rem', marginInline: 'auto' }]);
