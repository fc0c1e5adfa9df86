import { globalStyle, style } from '@vanilla-extract/css';
import { nativeFocusRingSelectors } from '../../components/focus.css';
import { vars } from '../../theme.css';

export const grid = style({
  display: 'grid',
  gap: vars.space.lg,
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 22rem), 1fr))',
});
export const wide = style({ gridColumn: '1 / -1' });
export const facts = style({
  display: 'grid',
  gridTemplateColumns: 'max-content 1fr',
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: 0,
});
globalStyle(`${facts} dt`, { color: vars.color.textMuted });
globalStyle(`${facts} dd`, { margin: 0, overflowWrap: 'anywhere' });
export const links = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: vars.space.xs });
const linkBase = {
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  color: vars.color.text,
  borderRadius: vars.radius.md,
  outline: 'none',
  selectors: { ...nativeFocusRingSelectors, '&:hover': { backgroundColor: vars.color.surfaceHover } },
} as const;
export const star = style({ fill: vars.color.warning, stroke: vars.color.warning });
export const tiles = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gap: vars.space.sm,
  gridTemplateColumns: 'repeat(auto-fill, minmax(12rem, 1fr))',
});
export const tile = style({
  ...linkBase,
  padding: vars.space.md,
  border: `1px solid ${vars.color.border}`,
  textDecoration: 'none',
  minHeight: '3.5rem',
});
export const kinds = style({
  display: 'grid',
  gap: vars.space.lg,
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 18rem), 1fr))',
});
export const kind = style({ display: 'grid', gap: vars.space.xs, alignContent: 'start', minWidth: 0 });
export const kindTitle = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  margin: 0,
  fontSize: vars.font.size.md,
});
export const count = style({
  minWidth: '1.5rem',
  padding: `0 ${vars.space.xs}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.surfaceHover,
  textAlign: 'center',
  fontSize: vars.font.size.sm,
});
export const items = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: vars.space.xs });
export const item = style({
  ...linkBase,
  flexDirection: 'column',
  alignItems: 'flex-start',
  gap: 0,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  border: `1px solid ${vars.color.border}`,
  textDecoration: 'none',
});
export const itemName = style({ fontWeight: vars.font.weight.bold, overflowWrap: 'anywhere' });
export const detail = style({ color: vars.color.textMuted, fontSize: vars.font.size.sm, overflowWrap: 'anywhere' });
export const more = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm });
