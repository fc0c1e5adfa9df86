import { globalStyle, style } from '@vanilla-extract/css';
import * as toggle from '../../components/toggle.css';
import { vars } from '../../theme.css';

export const screen = style({ display: 'flex', flexDirection: 'column', gap: vars.space.lg, minWidth: 0 });

/** Search grows; the view switch and the buttons keep their size and wrap below on phones. */
export const toolbar = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: vars.space.md });

export const search = style({ flex: '1 1 16rem', minWidth: 0, maxWidth: '28rem' });

/** The active/deleted radios side by side, as toggle.css.ts lays out a horizontal group. */
export const views = style({});
globalStyle(`${views} > ${toggle.options}`, { flexDirection: 'row', flexWrap: 'wrap', columnGap: vars.space.md });

/** The list's filters (plan, feature on/off), side by side, wrapping on a phone. */
export const filters = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: vars.space.md });

export const toolbarEnd = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, marginInlineStart: 'auto' });

export const name = style({ fontWeight: vars.font.weight.medium, overflowWrap: 'anywhere' });

export const nowrap = style({ whiteSpace: 'nowrap' });

/** A deleted tenant's name in the all view, its "Excluído em" badge below it, both at the start. */
export const markedName = style({
  display: 'inline-flex',
  flexDirection: 'column',
  alignItems: 'flex-start',
  gap: vars.space.xs,
});

/** "6 de 5" and, past the limit, a badge that says so in words. */
export const usage = style({
  display: 'inline-flex',
  flexWrap: 'wrap',
  justifyContent: 'flex-end',
  alignItems: 'center',
  gap: vars.space.xs,
});

export const muted = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm });

/** Form fields two by two in a wide dialog, one per line on a phone. */
export const fields = style({
  display: 'grid',
  gap: vars.space.md,
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 15rem), 1fr))',
});

export const wide = style({ gridColumn: '1 / -1' });

export const section = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md, minWidth: 0 });

export const sectionTitle = style({ margin: 0, fontSize: vars.font.size.md, fontWeight: vars.font.weight.bold });

export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'center' });

/** Per-item results of a bulk run: name, then its outcome; wraps on a phone. */
export const results = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.xs,
});

export const result = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  border: `1px solid ${vars.color.borderSubtle}`,
  borderRadius: vars.radius.md,
  minWidth: 0,
});

export const resultStatus = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.xs,
  fontSize: vars.font.size.sm,
});

export const featureRow = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  padding: `${vars.space.sm} 0`,
  borderBottom: `1px solid ${vars.color.borderSubtle}`,
  minWidth: 0,
});

/** The analytics result: label/value pairs, two columns wide, one on a phone. */
export const facts = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 10rem), 1fr))',
  gap: vars.space.sm,
  margin: 0,
});

export const fact = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xxs, minWidth: 0 });

export const factLabel = style({ color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const factValue = style({ margin: 0, fontWeight: vars.font.weight.bold, fontVariantNumeric: 'tabular-nums' });

export const notice = style({
  margin: 0,
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.borderSubtle}`,
  backgroundColor: vars.color.infoSurface,
  color: vars.color.text,
});

export const panelHeader = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'flex-end',
  gap: vars.space.md,
  marginBottom: vars.space.md,
});

export const loading = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  color: vars.color.textMuted,
  padding: `${vars.space.lg} 0`,
});

export const ok = style({ color: vars.color.success, flexShrink: 0 });

export const failed = style({ color: vars.color.danger, flexShrink: 0 });

/** A generated run's live counters and history link, on a line of their own under the type's result. */
export const runLine = style({
  flexBasis: '100%',
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.xs,
  minWidth: 0,
});

/** The Webhooks tab: the endpoints, then the generator, apart. */
export const tabStack = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xl, minWidth: 0 });
