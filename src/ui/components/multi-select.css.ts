import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';
import { focusRing } from './focus.css';

export const root = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs, minWidth: 0 });

export const search = style({ marginBottom: vars.space.xs });

export const tagList = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xs, outline: 'none' });

export const tag = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.xxs,
  maxWidth: '100%',
  minHeight: '1.75rem',
  paddingInlineStart: vars.space.sm,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.pill,
  backgroundColor: vars.color.surface,
  color: vars.color.text,
  fontSize: vars.font.size.sm,
  outline: 'none',
  selectors: { '&[data-focus-visible]': focusRing },
});

export const tagText = style({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });

export const tagRemove = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '1.5rem',
  height: '1.5rem',
  padding: 0,
  border: 'none',
  borderRadius: '50%',
  background: 'transparent',
  color: vars.color.textMuted,
  cursor: 'pointer',
  outline: 'none',
  selectors: {
    '&[data-hovered]': { backgroundColor: vars.color.surfaceHover, color: vars.color.text },
    '&[data-focus-visible]': focusRing,
  },
});
