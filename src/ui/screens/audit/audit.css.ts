import { style } from '@vanilla-extract/css';
import { nativeSelect, nativeSelectIcon } from '../../components/native-select.css';
import { vars } from '../../theme.css';

/** The id filters are short numbers: narrower than the period and the selects. */
export const idField = style({ flex: '0 1 10rem', minWidth: 0 });

export const who = style({ display: 'flex', flexDirection: 'column', minWidth: 0 });

export const secondary = style({ color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const code = style({ fontFamily: vars.font.mono, fontSize: vars.font.size.sm, overflowWrap: 'anywhere' });

/** "Carregar mais" / the end of the list, and the live notice. */
export const footer = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  color: vars.color.textMuted,
  fontSize: vars.font.size.sm,
});

export const notice = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  padding: vars.space.sm,
  border: `1px solid ${vars.color.borderSubtle}`,
  borderRadius: vars.radius.md,
  fontSize: vars.font.size.sm,
});

export const error = style({ margin: 0, color: vars.color.danger, fontSize: vars.font.size.sm });

/** The detail's who/when/where list: term and value side by side where there is room. */
export const facts = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(7rem, max-content) 1fr',
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: 0,
});

export const term = style({ color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const value = style({ margin: 0, minWidth: 0, overflowWrap: 'anywhere' });

export const section = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  marginTop: vars.space.md,
});

export const heading = style({ margin: 0, fontSize: vars.font.size.md });

export const diff = style({ width: '100%', borderCollapse: 'collapse', fontSize: vars.font.size.sm });

export const diffCell = style({
  textAlign: 'start',
  verticalAlign: 'top',
  padding: vars.space.xs,
  borderBottom: `1px solid ${vars.color.borderSubtle}`,
  overflowWrap: 'anywhere',
});

export const list = style({ margin: 0, paddingInlineStart: vars.space.md });

/** The native selects of the filters: the select and its chevron (the browser's own arrow hidden). */
export const selectBox = style({ position: 'relative', display: 'flex', alignItems: 'center' });

export const select = style([nativeSelect, { width: '100%' }]);

export const selectIcon = nativeSelectIcon;

/** The detail's "only this user / target" buttons, under the changes. */
export const detailActions = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.sm,
  marginTop: vars.space.md,
});
