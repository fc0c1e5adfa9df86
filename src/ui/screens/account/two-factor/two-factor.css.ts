import { style } from '@vanilla-extract/css';
import { vars } from '../../../theme.css';

export const intro = style({ margin: 0, color: vars.color.textMuted, maxWidth: '48rem' });

// The enrolment's muted text and warning box, so the status card matches the enrolment steps.
export { muted, warning } from '../../../components/two-factor-enrolment.css';

export const statusLine = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  margin: 0,
});

export const codeField = style({ maxWidth: '16rem' });
