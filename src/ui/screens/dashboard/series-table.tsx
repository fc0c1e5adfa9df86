import type { SeriesPoint } from '../../../machines/dashboard/dashboard-query-api';
import * as styles from './charts.css';

/** One numeric column of a {@link SeriesTable}. */
export interface TableColumn {
  label: string;
  points: readonly SeriesPoint[];
  format: (value: number) => string;
}

export interface SeriesTableProps {
  caption: string;
  dateHeader: string;
  columns: readonly TableColumn[];
  formatDate: (date: string) => string;
  totalLabel: string;
  /** Shown on screen: a keyboard-focusable scrolling region. Otherwise (read beside a chart) a bare table. */
  visible: boolean;
}

/** Sums a column to the cent, so a revenue total reads like the KPI (no float dust). */
function total(points: readonly SeriesPoint[]): number {
  return Math.round(points.reduce((sum, p) => sum + p.value, 0) * 100) / 100;
}

/**
 * A chart's numbers as a plain table (the fallback for every chart, and what screen readers get):
 * one row per bucket, one column per series, a total row. A static `<table>` with row headers,
 * not a grid: there is nothing to select or sort.
 */
export function SeriesTable({ caption, dateHeader, columns, formatDate, totalLabel, visible }: SeriesTableProps) {
  const dates = (columns[0]?.points ?? []).map((p) => p.date);
  const table = (
    <table className={styles.table}>
      <caption className={styles.caption}>{caption}</caption>
      <thead>
        <tr>
          <th scope="col" className={styles.th}>
            {dateHeader}
          </th>
          {columns.map((c) => (
            <th key={c.label} scope="col" className={`${styles.th} ${styles.number}`}>
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {dates.map((date, row) => (
          <tr key={date}>
            <th scope="row" className={`${styles.td} ${styles.rowHeader}`}>
              {formatDate(date)}
            </th>
            {columns.map((c) => (
              <td key={c.label} className={`${styles.td} ${styles.number}`}>
                {c.format(c.points[row]?.value ?? 0)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr className={styles.total}>
          <th scope="row" className={`${styles.td} ${styles.rowHeader}`}>
            {totalLabel}
          </th>
          {columns.map((c) => (
            <td key={c.label} className={`${styles.td} ${styles.number}`}>
              {c.format(total(c.points))}
            </td>
          ))}
        </tr>
      </tfoot>
    </table>
  );
  if (!visible) return table;
  return (
    // A scrolling region must be reachable by keyboard (axe scrollable-region-focusable).
    <div className={styles.tableWrapper} tabIndex={0} role="region" aria-label={caption}>
      {table}
    </div>
  );
}
