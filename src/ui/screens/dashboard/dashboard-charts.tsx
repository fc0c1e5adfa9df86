import { useLocale } from 'react-aria-components/I18nProvider';
import { useTranslation } from 'react-i18next';
import type { SeriesData } from '../../../machines/dashboard/dashboard.machine';
import { ChartCard } from './chart-card';
import { formatAxis, formatBucket, formatMetric } from './dashboard-format';

/**
 * The dashboard's charts (loaded lazily, only on the dashboard routes): orders and revenue per
 * bucket, and attendances with closed tickets, each with its table fallback.
 */
export default function DashboardCharts({ series }: { series: SeriesData }) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { interval, points } = series;
  const formatDate = (date: string, variant: 'long' | 'short') => formatBucket(date, interval, locale, variant);
  const dateHeader = t(`dashboard.charts.date.${interval}`);
  const count = (value: number) => formatMetric('orders', value, locale);
  return (
    <>
      <ChartCard
        title={t(`dashboard.charts.orders.${interval}`)}
        kind="bar"
        series={[{ label: t('dashboard.kpi.orders'), points: points.orders, tone: 'primary' }]}
        dateHeader={dateHeader}
        formatValue={count}
        formatAxis={(value) => formatAxis('orders', value, locale)}
        formatDate={formatDate}
      />
      <ChartCard
        title={t(`dashboard.charts.revenue.${interval}`)}
        kind="line"
        series={[{ label: t('dashboard.kpi.revenue'), points: points.revenue, tone: 'primary' }]}
        dateHeader={dateHeader}
        formatValue={(value) => formatMetric('revenue', value, locale)}
        formatAxis={(value) => formatAxis('revenue', value, locale)}
        formatDate={formatDate}
      />
      <ChartCard
        title={t(`dashboard.charts.attendances.${interval}`)}
        kind="line"
        wide
        series={[
          { label: t('dashboard.kpi.attendances'), points: points.attendances, tone: 'primary' },
          { label: t('dashboard.kpi.ticketsClosed'), points: points.tickets, tone: 'secondary' },
        ]}
        dateHeader={dateHeader}
        formatValue={count}
        formatAxis={(value) => formatAxis('attendances', value, locale)}
        formatDate={formatDate}
      />
    </>
  );
}
