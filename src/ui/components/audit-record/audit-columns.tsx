import type { TFunction } from 'i18next';
import { formatDateTime } from '../../../domain/format';
import type { AuditRecord } from '../../../machines/audit/audit.machine';
import { Button } from '../button';
import type { DataTableColumn } from '../data-table';
import * as reportStyles from '../reports/report-layout.css';
import * as styles from './audit-record.css';

/**
 * Who acted: the user's name, else the provider's team (staff, whose names a reader who is not staff
 * does not get: contracts/openapi.yaml AuditRecord), the server itself (the purge) or an unknown caller (a denial).
 */
export function actorName(t: TFunction, record: AuditRecord): string {
  if (record.actor_name) return record.actor_name;
  if (record.actor_staff) return t('audit.staffActor');
  return t(record.operation === 'audit.purge' ? 'audit.system' : 'audit.unknownActor');
}

/** "Tenant farmacia-x (nº 2)": the target's type, name and id, as far as the record has them. */
export function targetText(t: TFunction, record: AuditRecord): string {
  const type = t(`audit.target.${record.target_type}`);
  if (record.target_id === null) return record.target_name ? `${type} ${record.target_name}` : type;
  if (!record.target_name) return t('audit.targetWithId', { type, id: record.target_id });
  return t('audit.targetFull', { type, name: record.target_name, id: record.target_id });
}

function Muted({ t }: { t: TFunction }) {
  return <span className={reportStyles.muted}>{t('audit.none')}</span>;
}

/** When, who (name, e-mail, tenant), operation, target, tenant, address, and the detail button. */
export function auditColumns(
  t: TFunction,
  locale: string,
  onOpen: (record: AuditRecord) => void,
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
    {
      id: 'who',
      header: t('audit.columns.who'),
      cell: (r) => (
        <span className={styles.who}>
          <span>{actorName(t, r)}</span>
          {r.actor_email ? <span className={styles.secondary}>{r.actor_email}</span> : null}
          {r.actor_tenant_name ? <span className={styles.secondary}>{r.actor_tenant_name}</span> : null}
        </span>
      ),
    },
    {
      id: 'operation',
      header: t('audit.columns.operation'),
      isRowHeader: true,
      cell: (r) => t(`audit.operation.${r.operation}`),
    },
    { id: 'target', header: t('audit.columns.target'), cell: (r) => targetText(t, r) },
    { id: 'tenant', header: t('audit.columns.tenant'), cell: (r) => r.tenant_name ?? <Muted t={t} /> },
    {
      id: 'address',
      header: t('audit.columns.address'),
      cell: (r) => (r.address ? <span className={styles.code}>{r.address}</span> : <Muted t={t} />),
    },
    {
      id: 'details',
      header: t('audit.columns.details'),
      align: 'end',
      cell: (r) => (
        <Button
          variant="ghost"
          size="sm"
          aria-label={t('audit.openRecordLabel', { id: r.id })}
          onPress={() => onOpen(r)}
        >
          {t('audit.openRecord')}
        </Button>
      ),
    },
  ];
}
