import { style } from '@vanilla-extract/css';
import { vars } from '../theme.css';

const narrow = 'screen and (max-width: 48rem)';

export const navbar = style({
  position: 'sticky',
  top: 0,
  zIndex: 10,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  minHeight: '3.5rem',
  padding: `${vars.space.xs} ${vars.space.md}`,
  backgroundColor: vars.color.surface,
  borderBottom: `1px solid ${vars.color.borderSubtle}`,
});

export const group = style({ display: 'flex', alignItems: 'center', gap: vars.space.xs, minWidth: 0 });

export const wideOnly = style({ '@media': { [narrow]: { display: 'none' } } });

export const tenantSwitcher = style({
  width: '14rem',
  '@media': { [narrow]: { width: '9rem' } },
});

export const userButton = style({ gap: vars.space.sm, paddingInline: vars.space.xs });

export const userName = style({
  maxWidth: '10rem',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  '@media': { [narrow]: { display: 'none' } },
});

export const avatar = style({
  display: 'inline-grid',
  placeItems: 'center',
  width: '2rem',
  height: '2rem',
  borderRadius: '50%',
  backgroundColor: vars.color.primary,
  color: vars.color.primaryText,
  fontSize: vars.font.size.sm,
  fontWeight: 600,
  flexShrink: 0,
  // The button's label is one inline span (button.tsx), so its flex gap never reached the name: the
  // avatar keeps its own distance from it (none where the name is hidden).
  marginInlineEnd: vars.space.sm,
  verticalAlign: 'middle',
  '@media': { [narrow]: { marginInlineEnd: 0 } },
  // The initials are drawn, not text: the button's visible text is then the name alone, which its
  // label ("Menu do usuário: <name>") contains (axe label-content-name-mismatch, WCAG 2.5.3).
  '::before': { content: 'attr(data-initials)' },
});

export const starredButton = style({ paddingInline: vars.space.sm });
export const starredCount = style({ fontSize: vars.font.size.sm });

export const preferences = style({ display: 'grid', gap: vars.space.lg });

/** Text kept for screen readers but hidden on narrow screens (the shape and colour stay visible). */
export const narrowHidden = style({
  '@media': {
    [narrow]: {
      position: 'absolute',
      width: 1,
      height: 1,
      overflow: 'hidden',
      clip: 'rect(0 0 0 0)',
      whiteSpace: 'nowrap',
    },
  },
});
