import { style } from '@vanilla-extract/css';
import { vars } from '../../theme.css';
import { nativeFocusRingSelectors } from '../../components/focus.css';

export const card = style({
  width: '100%',
  maxWidth: '24rem',
  display: 'grid',
  gap: vars.space.md,
  padding: vars.space.xl,
  backgroundColor: vars.color.surface,
  border: `1px solid ${vars.color.borderSubtle}`,
  borderRadius: vars.radius.lg,
  boxShadow: vars.shadow.md,
  '@media': { 'screen and (max-width: 30rem)': { padding: vars.space.lg } },
});

export const title = style({ margin: 0, fontSize: vars.font.size.xl, lineHeight: 1.25 });

export const notice = style({
  margin: 0,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.infoSurface,
  color: vars.color.text,
});

export const hint = style({ margin: 0, color: vars.color.textMuted });

export const remember = style({ display: 'flex', gap: vars.space.sm, alignItems: 'center' });

export const success = style({
  margin: 0,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.successSurface,
  color: vars.color.text,
});

export const steps = style({ display: 'grid', gap: vars.space.md });

export const forgot = style({ display: 'grid', gap: vars.space.xs, justifyItems: 'center', textAlign: 'center' });

/** A text button that reads as a link: it opens a form in place, it goes nowhere. */
export const linkButton = style({
  padding: vars.space.xs,
  border: 'none',
  background: 'none',
  color: vars.color.primary,
  font: 'inherit',
  textDecoration: 'underline',
  textUnderlineOffset: '0.2em',
  cursor: 'pointer',
  borderRadius: vars.radius.sm,
  selectors: {
    '&:disabled': { color: vars.color.textMuted, cursor: 'not-allowed', textDecoration: 'none' },
    ...nativeFocusRingSelectors,
  },
});
