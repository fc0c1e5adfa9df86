import { useActorRef, useSelector } from '@xstate/react';
import { Suspense, useEffect, useMemo, useRef, type ComponentType } from 'react';
import type { Key } from 'react-aria-components/ListBox';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../domain/format';
import { isValidRange, type DateRange } from '../../../domain/date-range';
import {
  loginFailureReportMachine,
  selectLoadingUsers,
  selectLoginFailureStatus,
  type LoginFailure,
} from '../../../machines/reports/login-failure-report.machine';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ErrorState } from '../../components/error-state';
import { lazyPart } from '../../components/lazy-with-timeout';
import { appToasts, showToast } from '../../components/toast-queue';
import type { VirtualizedDataTableProps } from '../../components/virtualized-table';
import { useServices } from '../../hooks/services-context';
import { downloadCsv } from '../../components/reports/csv-file';
import { ReportToolbar } from '../../components/reports/report-toolbar';
import * as styles from '../../components/reports/report-layout.css';
import { FieldFallback } from '../../components/reports/lazy-fields';
import { defaultRange } from '../../components/reports/sheet-request';
import { useReportTenant } from '../../components/reports/use-report-tenant';
import { loginFailureColumns, loginFailureCsvRows } from './login-failure-columns';
import { ReportCut } from './report-cut';

/** Above this many failures only the rows in view are in the DOM (the server sends up to 10,000). */
export const VIRTUALIZE_FROM = 100;

// Own chunks, after the first paint: the picker's select/filter/tags stack, and the virtualizer
// only when a period has that many failures.
const UsersPicker = lazyPart(() => import('./users-picker'));
const VirtualizedTable = lazyPart(() =>
  import('../../components/virtualized-table').then((m) => ({
    default: m.VirtualizedDataTable as ComponentType<VirtualizedDataTableProps<LoginFailure>>,
  })),
);

/**
 * `/dashboard/report` and `/dashboard/report-smart` (the shell titles each): login failures of a
 * period, newest first, narrowed to the chosen users (none chosen: everyone), with a CSV export of
 * the rows shown. The user picker lists the tenant's users under the report's own permission.
 */
export default function LoginFailureReportScreen() {
  const { t, i18n } = useTranslation();
  const { clients } = useServices();
  const tenantName = useReportTenant();
  const actor = useActorRef(loginFailureReportMachine, {
    input: { rest: clients.rest, tenantName, ...defaultRange() },
  });
  const range = useSelector(actor, (s) => s.context.range);
  const invalid = useSelector(actor, (s) => s.context.invalid);
  const error = useSelector(actor, (s) => s.context.error);
  const users = useSelector(actor, (s) => s.context.users);
  const usersError = useSelector(actor, (s) => s.context.usersError);
  const selected = useSelector(actor, (s) => s.context.selectedUsers);
  const loadingUsers = useSelector(actor, selectLoadingUsers);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const status = useSelector(actor, selectLoginFailureStatus);
  const rows = useSelector(actor, (s) => s.context.rows);
  const cut = useSelector(actor, (s) => s.context.cut);
  const ran = useRef<DateRange>(range);
  const locale = i18n.language;
  const columns = useMemo(() => loginFailureColumns(t, locale), [t, locale]);

  const run = () => {
    const current = actor.getSnapshot().context.range;
    if (isValidRange(current)) ran.current = current;
    actor.send({ type: 'reports.run' });
  };
  // The first run waits for the picker (running earlier would cancel its load), then covers everyone.
  const first = useRef(true);
  useEffect(() => {
    if (loadingUsers || !first.current) return;
    first.current = false;
    run();
  }, [loadingUsers]); // eslint-disable-line react-hooks/exhaustive-deps

  const choose = (keys: Key[]) => {
    const next = keys.filter((key): key is number => typeof key === 'number');
    if (next.length === 0) return actor.send({ type: 'reports.clearUsers' });
    for (const id of new Set([...next, ...selected]))
      if (next.includes(id) !== selected.includes(id)) actor.send({ type: 'reports.toggleUser', userId: id });
  };
  const exportCsv = () => {
    downloadCsv(loginFailureCsvRows(t, rows), t('reports.screen.loginFailures.fileName', { ...ran.current }));
    showToast(appToasts, {
      variant: 'success',
      title: t('reports.screen.exported', { count: rows.length, rows: formatNumber(rows.length, locale) }),
    });
  };

  const table = {
    'aria-label': t('reports.screen.loginFailures.tableLabel'),
    columns,
    rows,
    status,
    emptyState: (
      <EmptyState
        title={t('reports.screen.loginFailures.empty')}
        description={t('reports.screen.loginFailures.emptyHint')}
      />
    ),
    errorState: (
      <ErrorState
        title={error ? t(error.key) : undefined}
        description={error ? t(error.reason) : undefined}
        onRetry={run}
        isRetrying={busy}
      />
    ),
  };
  return (
    <div className={styles.screen}>
      <p className={styles.intro}>
        {t('reports.screen.loginFailures.intro')} {t('reports.screen.loginFailures.addressHint')}
      </p>
      <ReportToolbar
        range={range}
        rangeError={invalid ? t(invalid) : null}
        onRange={(startAt, finishAt) => actor.send({ type: 'reports.range', startAt, finishAt })}
        onRun={run}
        busy={busy}
        canExport={status === 'ready' && rows.length > 0}
        onExport={exportCsv}
      >
        <Suspense fallback={<FieldFallback label={t('reports.screen.loginFailures.users')} className={styles.field} />}>
          <UsersPicker
            users={users}
            selected={selected}
            onChange={choose}
            description={
              usersError ? `${t(usersError.key)} ${t(usersError.reason)}` : t('reports.screen.loginFailures.usersHint')
            }
            isDisabled={loadingUsers || users.length === 0}
            className={styles.field}
          />
        </Suspense>
      </ReportToolbar>
      {status === 'ready' && rows.length > 0 ? (
        <p className={styles.total}>
          {t('reports.screen.loginFailures.total', { count: rows.length, rows: formatNumber(rows.length, locale) })}
        </p>
      ) : null}
      {/* The report stops at LOGIN_FAILURE_REPORT_ROWS (src/domain/report-limits.ts): say so, offer every row. */}
      {status === 'ready' && cut ? <ReportCut cut={cut} shown={rows.length} /> : null}
      {rows.length > VIRTUALIZE_FROM ? (
        <Suspense fallback={<DataTable {...table} rows={[]} status="loading" />}>
          <VirtualizedTable {...table} height="max(20rem, calc(100dvh - 22rem))" rowHeight={44} />
        </Suspense>
      ) : (
        <DataTable {...table} />
      )}
    </div>
  );
}
