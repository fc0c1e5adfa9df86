import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import type { SortDescriptor } from 'react-aria-components/Table';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../domain/format';
import { isValidRange, type DateRange } from '../../../domain/date-range';
import {
  productivityReportMachine,
  selectProductivityStatus,
  sortProductivity,
  type ProductivityKey,
} from '../../../machines/reports/productivity-report.machine';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ErrorState } from '../../components/error-state';
import { appToasts, showToast } from '../../components/toast-queue';
import { useServices } from '../../hooks/services-context';
import { downloadCsv } from '../../components/reports/csv-file';
import { ReportToolbar } from '../../components/reports/report-toolbar';
import * as styles from '../../components/reports/report-layout.css';
import { defaultRange } from '../../components/reports/sheet-request';
import { useReportTenant } from '../../components/reports/use-report-tenant';
import {
  PRODUCTIVITY_COLUMNS,
  productivityColumns,
  productivityCsvRows,
  type ProductivityTableRow,
} from './productivity-columns';

const isColumn = (key: unknown): key is ProductivityKey => PRODUCTIVITY_COLUMNS.some((c) => c === key);

/**
 * `/dashboard/produtivity-report`: per attendant for a period, attendances, average first response
 * and handling time, closed tickets; every column sorts; the CSV export holds exactly the rows shown,
 * in the order shown (`;`, BOM, decimal comma).
 */
export default function ProductivityReportScreen() {
  const { t, i18n } = useTranslation();
  const { clients } = useServices();
  const tenantName = useReportTenant();
  const actor = useActorRef(productivityReportMachine, {
    input: { rest: clients.rest, tenantName, ...defaultRange() },
  });
  const range = useSelector(actor, (s) => s.context.range);
  const invalid = useSelector(actor, (s) => s.context.invalid);
  const error = useSelector(actor, (s) => s.context.error);
  const sort = useSelector(actor, (s) => s.context.sort);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const status = useSelector(actor, selectProductivityStatus);
  const loaded = useSelector(actor, (s) => s.context.rows);
  const rows = useMemo<ProductivityTableRow[]>(
    () => sortProductivity(loaded, sort).map((row) => ({ ...row, id: row.user_id })),
    [loaded, sort],
  );
  const ran = useRef<DateRange>(range);
  const locale = i18n.language;
  const columns = useMemo(() => productivityColumns(t, locale), [t, locale]);

  const run = () => {
    const current = actor.getSnapshot().context.range;
    if (isValidRange(current)) ran.current = current;
    actor.send({ type: 'reports.run' });
  };
  // The report opens on the last 30 days; in StrictMode the second run is ignored while loading.
  useEffect(run, [actor]);

  const exportCsv = () => {
    downloadCsv(productivityCsvRows(t, rows), t('reports.screen.productivity.fileName', { ...ran.current }));
    showToast(appToasts, {
      variant: 'success',
      title: t('reports.screen.exported', { count: rows.length, rows: formatNumber(rows.length, locale) }),
    });
  };
  const sortDescriptor: SortDescriptor = {
    column: sort.key,
    direction: sort.direction === 'asc' ? 'ascending' : 'descending',
  };

  return (
    <div className={styles.screen}>
      <p className={styles.intro}>{t('reports.screen.productivity.intro')}</p>
      <ReportToolbar
        range={range}
        rangeError={invalid ? t(invalid) : null}
        onRange={(startAt, finishAt) => actor.send({ type: 'reports.range', startAt, finishAt })}
        onRun={run}
        busy={busy}
        canExport={status === 'ready' && rows.length > 0}
        onExport={exportCsv}
      />
      {status === 'ready' && rows.length > 0 ? (
        <p className={styles.total}>
          {t('reports.screen.productivity.total', { count: rows.length, rows: formatNumber(rows.length, locale) })}
        </p>
      ) : null}
      <DataTable
        aria-label={t('reports.screen.productivity.tableLabel')}
        columns={columns}
        rows={rows}
        status={status}
        sortDescriptor={sortDescriptor}
        onSortChange={(next) => isColumn(next.column) && actor.send({ type: 'reports.sort', key: next.column })}
        emptyState={
          <EmptyState
            title={t('reports.screen.productivity.empty')}
            description={t('reports.screen.productivity.emptyHint')}
          />
        }
        errorState={
          <ErrorState
            title={error ? t(error.key) : undefined}
            description={error ? t(error.reason) : undefined}
            onRetry={run}
            isRetrying={busy}
          />
        }
      />
    </div>
  );
}
