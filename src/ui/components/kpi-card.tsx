import type { ReactNode } from 'react';
import { useLocale } from 'react-aria-components/I18nProvider';
import { useTranslation } from 'react-i18next';
import * as styles from './card.css';
import { cx } from './class-names';
import { ArrowDownIcon, ArrowUpIcon, MinusIcon } from './icons';
import { Skeleton } from './skeleton';

export interface KpiCardProps {
  /** What is measured, e.g. "Pedidos", "Receita" (translated). */
  label: string;
  /** The figure, already formatted by the caller (R$ with decimal comma comes from src/domain/format). */
  value: ReactNode;
  /** Change against the previous period as a fraction (0.12 = +12 %); formatted in the active locale. */
  delta?: number;
  /** Set when a fall is good news (e.g. response time): swaps the colours, not the words. */
  invertDelta?: boolean;
  /** Extra line under the value (e.g. the period). */
  footnote?: ReactNode;
  isLoading?: boolean;
  className?: string;
}

/**
 * A dashboard figure: label, big value, and the change as icon + words ("Aumento de 12%") so
 * the direction never rests on green/red alone. A `group` named by the label for screen readers.
 */
export function KpiCard({ label, value, delta, invertDelta, footnote, isLoading, className }: KpiCardProps) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  let deltaNode: ReactNode = null;
  if (delta !== undefined && !isLoading) {
    const magnitude = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(
      Math.abs(delta),
    );
    const direction = delta > 0 ? 'up' : delta < 0 ? 'down' : 'flat';
    const tone = direction === 'flat' ? 'flat' : (direction === 'up') !== Boolean(invertDelta) ? 'up' : 'down';
    const Icon = direction === 'up' ? ArrowUpIcon : direction === 'down' ? ArrowDownIcon : MinusIcon;
    const text =
      direction === 'up'
        ? t('ui.kpi.increase', { value: magnitude })
        : direction === 'down'
          ? t('ui.kpi.decrease', { value: magnitude })
          : t('ui.kpi.unchanged');
    deltaNode = (
      <span className={cx(styles.delta, styles.deltaTone[tone])}>
        <Icon size={14} />
        {text}
      </span>
    );
  }
  return (
    <div
      role="group"
      aria-label={label}
      aria-busy={isLoading || undefined}
      className={cx(styles.card, styles.kpi, className)}
    >
      <p className={styles.kpiLabel}>{label}</p>
      {isLoading ? <Skeleton height="2.5rem" width="60%" /> : <p className={styles.kpiValue}>{value}</p>}
      {deltaNode}
      {footnote ? <p className={styles.kpiLabel}>{footnote}</p> : null}
    </div>
  );
}
