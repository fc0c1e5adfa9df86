import type { TFunction } from 'i18next';
import { formatDateTime } from '../../../domain/format';
import type { LoginFailure } from '../../../machines/reports/login-failure-report.machine';
import type { DataTableColumn } from '../../components/data-table';
import { csvDateTime, type CsvValue } from '../../components/reports/csv-file';
import * as styles from '../../components/reports/report-layout.css';

/**
 * When (pt-BR date and time in São Paulo), who, which e-mail was tried, from which address: the
 * connection's (`ip`, as the trusted proxies tell it), and apart, labelled as such, the one the browser
 * claimed (`claimed_ip`: the sign-in page's IP lookup, which whoever tried can set).
 */
export function loginFailureColumns(t: TFunction, locale: string): DataTableColumn<LoginFailure>[] {
  const none = <span className={styles.muted}>{t('reports.screen.none')}</span>;
  return [
    {
      id: 'when',
      header: t('reports.screen.loginFailures.columns.when'),
      cell: (r) => <span className={styles.nowrap}>{formatDateTime(r.created_at, locale)}</span>,
    },
    {
      id: 'user',
      header: t('reports.screen.loginFailures.columns.user'),
      isRowHeader: true,
      cell: (r) => r.user_name ?? <span className={styles.muted}>{t('reports.screen.loginFailures.unknownUser')}</span>,
    },
    { id: 'email', header: t('reports.screen.loginFailures.columns.email'), cell: (r) => r.email },
    {
      id: 'address',
      header: t('reports.screen.loginFailures.columns.address'),
      cell: (r) => r.ip ?? none,
    },
    {
      id: 'claimedIp',
      header: t('reports.screen.loginFailures.columns.claimedIp'),
      cell: (r) => (r.claimed_ip === null ? none : <span className={styles.muted}>{r.claimed_ip}</span>),
    },
  ];
}

/** The CSV of the rows as shown: the same columns, instants as `YYYY-MM-DD HH:mm` in São Paulo. */
export function loginFailureCsvRows(t: TFunction, rows: readonly LoginFailure[]): CsvValue[][] {
  return [
    [
      t('reports.screen.loginFailures.columns.when'),
      t('reports.screen.loginFailures.columns.user'),
      t('reports.screen.loginFailures.columns.email'),
      t('reports.screen.loginFailures.columns.address'),
      t('reports.screen.loginFailures.columns.claimedIp'),
    ],
    ...rows.map((r) => [csvDateTime(r.created_at), r.user_name, r.email, r.ip, r.claimed_ip]),
  ];
}
