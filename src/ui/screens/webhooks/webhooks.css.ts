import { style } from '@vanilla-extract/css';
import { vars } from '../../theme.css';

export const section = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md, minWidth: 0 });

export const heading = style({ margin: 0, fontSize: vars.font.size.md, fontWeight: vars.font.weight.bold });

export const muted = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'center' });

export const error = style({ margin: 0, color: vars.color.danger, fontSize: vars.font.size.sm });

export const notice = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  padding: vars.space.sm,
  border: `1px solid ${vars.color.warning}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.warningSurface,
});

export const info = style([notice, { borderColor: vars.color.info, backgroundColor: vars.color.infoSurface }]);

export const runs = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
});

export const run = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.xs,
  padding: vars.space.sm,
  border: `1px solid ${vars.color.borderSubtle}`,
  borderRadius: vars.radius.md,
  minWidth: 0,
});

export const counters = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: `${vars.space.xxs} ${vars.space.md}`,
  fontSize: vars.font.size.sm,
  fontVariantNumeric: 'tabular-nums',
});

export const filters = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: vars.space.md });

export const filter = style({ flex: '1 1 11rem', minWidth: 0, maxWidth: '16rem' });

export const pre = style({
  margin: 0,
  padding: vars.space.sm,
  maxHeight: '20rem',
  overflow: 'auto',
  fontFamily: vars.font.mono,
  fontSize: vars.font.size.sm,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  border: `1px solid ${vars.color.borderSubtle}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.surface,
});

export const detail = style({
  // Under a row that stacks as a card at 390 px (whose cells end-align their values): read as a page.
  textAlign: 'start',
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.md,
  padding: `${vars.space.sm} ${vars.space.md}`,
  minWidth: 0,
  maxWidth: '60rem',
});

export const attempts = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
});

export const footer = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.md });

export const nowrap = style({ whiteSpace: 'nowrap' });

/** A last answer in words ("Falha de conexão (DNS, recusa ou TLS)"): wraps between words rather than widening the table. */
export const answer = style({ whiteSpace: 'normal', display: 'inline-block', minWidth: '9rem', maxWidth: '14rem' });

/** An endpoint's address in a cell: wraps anywhere rather than widening the table. */
export const address = style({
  fontFamily: vars.font.mono,
  fontSize: vars.font.size.sm,
  whiteSpace: 'normal',
  overflowWrap: 'anywhere',
  display: 'inline-block',
  minWidth: '8rem',
});
