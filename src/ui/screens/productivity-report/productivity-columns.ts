import type { TFunction } from 'i18next';
import { formatDuration, formatNumber } from '../../../domain/format';
import type { ProductivityKey, ProductivityRow } from '../../../machines/reports/productivity-report.machine';
import type { DataTableColumn } from '../../components/data-table';
import type { CsvValue } from '../../components/reports/csv-file';

/** A productivity row as the table keys it. */
export type ProductivityTableRow = ProductivityRow & { id: number };

/** The shown columns, in order; the CSV export has the same ones. */
export const PRODUCTIVITY_COLUMNS = [
  'name',
  'attendances',
  'avgFirstResponseSeconds',
  'avgHandlingSeconds',
  'closedTickets',
] as const satisfies readonly ProductivityKey[];

/** Sortable columns of the table; durations read as `3min 20s`. */
export function productivityColumns(t: TFunction, locale: string): DataTableColumn<ProductivityTableRow>[] {
  const header = (key: (typeof PRODUCTIVITY_COLUMNS)[number]) => t(`reports.screen.productivity.columns.${key}`);
  return [
    { id: 'name', header: header('name'), isRowHeader: true, allowsSorting: true, cell: (r) => r.name },
    {
      id: 'attendances',
      header: header('attendances'),
      allowsSorting: true,
      align: 'end',
      cell: (r) => formatNumber(r.attendances, locale),
    },
    {
      id: 'avgFirstResponseSeconds',
      header: header('avgFirstResponseSeconds'),
      allowsSorting: true,
      align: 'end',
      cell: (r) => formatDuration(r.avgFirstResponseSeconds),
    },
    {
      id: 'avgHandlingSeconds',
      header: header('avgHandlingSeconds'),
      allowsSorting: true,
      align: 'end',
      cell: (r) => formatDuration(r.avgHandlingSeconds),
    },
    {
      id: 'closedTickets',
      header: header('closedTickets'),
      allowsSorting: true,
      align: 'end',
      cell: (r) => formatNumber(r.closedTickets, locale),
    },
  ];
}

/** The CSV of the rows as shown (same order): header line, then seconds with a decimal comma. */
export function productivityCsvRows(t: TFunction, rows: readonly ProductivityRow[]): CsvValue[][] {
  return [
    PRODUCTIVITY_COLUMNS.map((key) => t(`reports.screen.productivity.csv.${key}`)),
    ...rows.map((r) => [
      r.name,
      r.attendances,
      { decimal: r.avgFirstResponseSeconds },
      { decimal: r.avgHandlingSeconds },
      r.closedTickets,
    ]),
  ];
}
