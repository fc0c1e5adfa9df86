import { useLocale } from 'react-aria-components/I18nProvider';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../domain/format';
import type { DashboardSummary, SummaryData } from '../../../machines/dashboard/dashboard.machine';
import type { I18nKey } from '../../../domain/i18n-key';
import { Grid } from '../../components/layout';
import { KpiCard } from '../../components/kpi-card';
import { change, formatMetric } from './dashboard-format';
import * as styles from './dashboard.css';

type Figure = 'orders' | 'revenue' | 'averageTicket' | 'attendances' | 'ticketsClosed' | 'ticketsOpen' | 'onlineUsers';

interface Kpi {
  figure: Figure;
  label: I18nKey;
  /** A rise is bad news (more tickets left open): swaps the colours, not the words. */
  invert?: boolean;
  /** Not a figure of the period (users online right now): no change, a footnote instead. */
  snapshot?: boolean;
}

const KPIS: readonly Kpi[] = [
  { figure: 'orders', label: 'dashboard.kpi.orders' },
  { figure: 'revenue', label: 'dashboard.kpi.revenue' },
  { figure: 'averageTicket', label: 'dashboard.kpi.averageTicket' },
  { figure: 'attendances', label: 'dashboard.kpi.attendances' },
  { figure: 'ticketsClosed', label: 'dashboard.kpi.ticketsClosed' },
  { figure: 'ticketsOpen', label: 'dashboard.kpi.ticketsOpen', invert: true },
  { figure: 'onlineUsers', label: 'dashboard.kpi.onlineUsers', snapshot: true },
];

function format(figure: Figure, value: number, locale: string): string {
  return figure === 'revenue' || figure === 'averageTicket'
    ? formatMetric(figure, value, locale)
    : formatMetric('orders', value, locale);
}

/**
 * The KPI cards: orders, revenue and average order value (R$), attendances, closed and open
 * tickets, each with its change against the previous period when that period has figures; users
 * online now. Skeletons while loading.
 */
export function KpiGrid({ summary, isLoading }: { summary: SummaryData | null; isLoading: boolean }) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const current: DashboardSummary | undefined = summary?.current;
  const previous = summary?.previous ?? undefined;
  const range = summary?.previousRange;
  const deltaOf = (kpi: Kpi) =>
    current && !kpi.snapshot ? change(current[kpi.figure], previous?.[kpi.figure]) : undefined;
  // The note only where a change shows: a previous period without figures (a new tenant) compares nothing.
  const compared = !isLoading && range && KPIS.some((kpi) => deltaOf(kpi) !== undefined);
  return (
    <>
      {compared ? (
        <p className={styles.note}>
          {t('dashboard.kpi.comparison', {
            from: formatDate(range.startAt, locale),
            to: formatDate(range.finishAt, locale),
          })}
        </p>
      ) : null}
      {/* 15rem: "R$ 1.234.567,89" fits a card without breaking the figure. */}
      <Grid minColumnWidth="15rem" as="div">
        {KPIS.map((kpi) => (
          <KpiCard
            key={kpi.figure}
            label={t(kpi.label)}
            isLoading={isLoading || current === undefined}
            value={current ? format(kpi.figure, current[kpi.figure], locale) : ''}
            delta={deltaOf(kpi)}
            invertDelta={kpi.invert}
            footnote={
              kpi.snapshot
                ? t('dashboard.kpi.now')
                : kpi.figure === 'ticketsOpen'
                  ? t('dashboard.kpi.openOfPeriod')
                  : undefined
            }
          />
        ))}
      </Grid>
    </>
  );
}
