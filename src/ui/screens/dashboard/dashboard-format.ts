import { formatCurrency, formatDate, formatNumber } from '../../../domain/format';
import type { SeriesInterval, SeriesMetric } from '../../../machines/dashboard/dashboard-query-api';

/**
 * How the dashboard writes its figures and buckets: R$ with a decimal comma for revenue (docs/product.md, Dashboards and reports),
 * grouped integers for counts, and a bucket's date as its interval needs (day, week start, month).
 * Dates are calendar dates (`YYYY-MM-DD`), read in UTC so they never shift by the zone.
 */

/** A figure in full: `R$ 53.120,40` for revenue, `1.234` for counts. */
export function formatMetric(metric: SeriesMetric | 'averageTicket', value: number, locale: string): string {
  return metric === 'revenue' || metric === 'averageTicket'
    ? formatCurrency(value, locale)
    : formatNumber(value, locale);
}

/** A figure on a chart axis, short: `R$ 12 mil`, `1,5 mil`. */
export function formatAxis(metric: SeriesMetric, value: number, locale: string): string {
  const compact: Intl.NumberFormatOptions = { notation: 'compact', maximumFractionDigits: 1 };
  return formatNumber(
    value,
    locale,
    metric === 'revenue' ? { ...compact, style: 'currency', currency: 'BRL' } : compact,
  );
}

const shortDay: Intl.DateTimeFormatOptions = { day: '2-digit', month: '2-digit', timeZone: 'UTC' };
const monthYear: Intl.DateTimeFormatOptions = { month: 'short', year: 'numeric', timeZone: 'UTC' };

/**
 * A bucket's date: `long` for tables and tooltips (`01/11/2026`, `nov. de 2026`), `short` for the
 * axis (`01/11`, `nov. de 2026`).
 */
export function formatBucket(
  date: string,
  interval: SeriesInterval,
  locale: string,
  variant: 'long' | 'short',
): string {
  const instant = new Date(`${date}T00:00:00Z`);
  if (interval === 'month') return new Intl.DateTimeFormat(locale, monthYear).format(instant);
  return variant === 'long' ? formatDate(date, locale) : new Intl.DateTimeFormat(locale, shortDay).format(instant);
}

/** The change against the previous period as a fraction, or nothing when there is no base to compare with. */
export function change(current: number, previous: number | undefined): number | undefined {
  return previous === undefined || previous <= 0 ? undefined : (current - previous) / previous;
}
