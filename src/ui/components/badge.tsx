import type { ReactNode } from 'react';
import * as styles from './badge.css';
import { cx } from './class-names';

export type Tone = keyof typeof styles.tone;

export interface BadgeProps {
  /** The text; a badge always says what it means (never colour alone). */
  children: ReactNode;
  tone?: Tone;
  className?: string;
}

/** A short label for a status or category: "Bloqueado", "Excluído", "Oficial", a plan name. */
export function Badge({ children, tone = 'neutral', className }: BadgeProps) {
  return <span className={cx(styles.badge, styles.tone[tone], className)}>{children}</span>;
}
