import { style } from '@vanilla-extract/css';
import { touchTargets } from '../../../components/touch-targets.css';
import { vars } from '../../../theme.css';

export const panel = style({ display: 'flex', flexDirection: 'column', gap: vars.space.lg, minWidth: 0 });

export const header = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'flex-start',
  justifyContent: 'space-between',
  gap: vars.space.sm,
});

export const heading = style({
  margin: 0,
  fontSize: vars.font.size.xl,
  fontWeight: vars.font.weight.bold,
  lineHeight: vars.font.lineHeight.tight,
  overflowWrap: 'anywhere',
});

export const intro = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const section = style({ display: 'flex', flexDirection: 'column', gap: vars.space.sm, minWidth: 0 });

export const sectionHeading = style({ margin: 0, fontSize: vars.font.size.lg, fontWeight: vars.font.weight.bold });

/** Cards side by side on wide screens, one per row on phones, never overflowing the dialog. */
export const cards = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gap: vars.space.md,
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 18rem), 1fr))',
});

export const card = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  minWidth: 0,
  padding: vars.space.md,
  border: `1px solid ${vars.color.borderSubtle}`,
  borderRadius: vars.radius.lg,
  backgroundColor: vars.color.background,
});

export const activeCard = style({
  borderColor: vars.color.primary,
  boxShadow: `inset 0 0 0 1px ${vars.color.primary}`,
});

export const cardTitle = style({
  margin: 0,
  fontSize: vars.font.size.md,
  fontWeight: vars.font.weight.bold,
  overflowWrap: 'anywhere',
});

export const badges = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xs });

export const result = style({ margin: 0, fontSize: vars.font.size.sm, color: vars.color.textMuted });

/** An instance's or a connection's buttons: 44 px targets on a phone (components/touch-targets.css.ts). */
export const actions = style([
  touchTargets,
  { display: 'flex', flexWrap: 'wrap', gap: vars.space.xs, marginTop: 'auto' },
]);

export const connections = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.xs,
});

export const connection = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  columnGap: vars.space.md,
  rowGap: vars.space.xxs,
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: `1px solid ${vars.color.borderSubtle}`,
  borderRadius: vars.radius.md,
  minWidth: 0,
});

export const connectionName = style({
  fontWeight: vars.font.weight.medium,
  flex: '1 1 10rem',
  minWidth: 0,
  overflowWrap: 'anywhere',
});

export const muted = style({ color: vars.color.textMuted, fontSize: vars.font.size.sm });

export const mono = style({ fontFamily: vars.font.mono, fontSize: vars.font.size.sm });

export const loading = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  color: vars.color.textMuted,
  padding: vars.space.md,
});

/** Why the instance form's billing flags are disabled (not back-office staff), right under them. */
export const note = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.size.sm });
