import { style } from '@vanilla-extract/css';
import { vars } from '../../theme.css';

/**
 * How an audit record reads wherever it shows: the audit screen (src/ui/screens/audit) and the
 * support desk's person page (src/ui/screens/support) use the same columns and detail.
 */

export const who = style({ display: 'flex', flexDirection: 'column', minWidth: 0 });

export const secondary = style({ color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const code = style({ fontFamily: vars.font.mono, fontSize: vars.font.size.sm, overflowWrap: 'anywhere' });

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

/** The detail's "only this user / target" buttons, under the changes. */
export const detailActions = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.sm,
  marginTop: vars.space.md,
});
