import type { TFunction } from 'i18next';
import { formatDateTime } from '../../../domain/format';
import type { AuditRecord } from '../../../machines/audit/audit.machine';
import { actorName, targetText } from '../../components/audit-record/audit-columns';
import { IconButton } from '../../components/button';
import type { DataTableColumn } from '../../components/data-table';
import { ChevronDownIcon, ChevronRightIcon } from '../../components/icons';
import * as reportStyles from '../../components/reports/report-layout.css';
import * as styles from './audit.css';

/** The id of a record's expanded details (the expand button's `aria-controls`). */
export const recordDetailsId = (id: number) => `audit-record-${id}`;

/** One line of text, cut with an ellipsis where the column is narrower; the whole text as its title. */
function Line({ text, className }: { text: string; className?: string }) {
  return (
    <span className={className ? `${styles.line} ${className}` : styles.line} title={text}>
      {text}
    </span>
  );
}

/**
 * The audit screen's rows, one line each (docs/panel.md, Audit log): when, who (the name; e-mail and
 * tenant in the details), operation, target, the record's tenant (once), address, and the control that
 * expands the record's details under it (`aria-expanded`).
 */
export function auditRowColumns(
  t: TFunction,
  locale: string,
  expandedId: number | null,
  onToggle: (record: AuditRecord) => void,
): DataTableColumn<AuditRecord>[] {
  return [
    {
      id: 'when',
      header: t('audit.columns.when'),
      cell: (r) => (
        <time dateTime={r.at} className={reportStyles.nowrap}>
          {formatDateTime(r.at, locale)}
        </time>
      ),
    },
    { id: 'who', header: t('audit.columns.who'), cell: (r) => <Line text={actorName(t, r)} /> },
    {
      id: 'operation',
      header: t('audit.columns.operation'),
      isRowHeader: true,
      cell: (r) => <Line text={t(`audit.operation.${r.operation}`)} />,
    },
    { id: 'target', header: t('audit.columns.target'), cell: (r) => <Line text={targetText(t, r)} /> },
    {
      id: 'tenant',
      header: t('audit.columns.tenant'),
      cell: (r) =>
        r.tenant_name ? <Line text={r.tenant_name} /> : <span className={reportStyles.muted}>{t('audit.none')}</span>,
    },
    {
      id: 'address',
      header: t('audit.columns.address'),
      cell: (r) =>
        r.address ? (
          <Line text={r.address} className={styles.code} />
        ) : (
          <span className={reportStyles.muted}>{t('audit.none')}</span>
        ),
    },
    {
      id: 'details',
      header: t('audit.columns.details'),
      align: 'end',
      cell: (r) => {
        const open = expandedId === r.id;
        return (
          <IconButton
            variant="ghost"
            size="sm"
            label={t('audit.openRecordLabel', { id: r.id })}
            icon={open ? <ChevronDownIcon /> : <ChevronRightIcon />}
            aria-expanded={open}
            aria-controls={open ? recordDetailsId(r.id) : undefined}
            onPress={() => onToggle(r)}
          />
        );
      },
    },
  ];
}
