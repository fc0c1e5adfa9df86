import type { TFunction } from 'i18next';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../domain/format';
import type { AuditRecord } from '../../../machines/audit/audit.machine';
import type { AuditQuery } from '../../../machines/audit/audit-query';
import { readAuditValue } from '../../../machines/audit/audit-values';
import { Button } from '../button';
import { Modal } from '../dialog';
import { tenantValueLabels } from '../tenant-value-labels';
import * as reportStyles from '../reports/report-layout.css';
import { actorName, targetText } from './audit-columns';
import * as styles from './audit-record.css';

/**
 * Where a field's recorded words have their labels: the plan as the tenants screen names it, a sync or
 * connection state as the instances screen does, and the sign-in and disconnect words of the audit log.
 */
const VALUE_LABELS: Readonly<Record<string, (targetType: string) => string | null>> = {
  plan: () => 'tenants.screen.plans',
  status: (targetType) =>
    targetType === 'instance'
      ? 'instances.status'
      : targetType === 'connection'
        ? 'instances.connections.status'
        : null,
  two_factor: () => 'audit.value.two_factor',
  sessions: () => 'audit.value.sessions',
};
/** Fields recorded as instants, shown as the app's date and time. */
const INSTANT_FIELDS = new Set([
  'deleted_at',
  'cutoff',
  'login_attempts_cutoff',
  'sessions_begun_cutoff',
  'sessions_revoked_cutoff',
]);

export interface ValueContext {
  t: TFunction;
  exists: (key: string) => boolean;
  language: string;
  field: string;
  targetType: string;
}

/** A recorded word or instant as the app shows it elsewhere; anything unknown stays as recorded. */
function valueText(text: string, { t, exists, language, field, targetType }: ValueContext): string {
  if (INSTANT_FIELDS.has(field) && /^\d{4}-\d{2}-\d{2}T/.test(text) && Number.isFinite(Date.parse(text)))
    return formatDateTime(text, language);
  // A tenant's template and pool by their labels, never the raw slug (docs/product.md, Glossary).
  if (targetType === 'tenant' && (field === 'template' || field === 'pool')) return tenantValueLabels(t)[field](text);
  const prefix = VALUE_LABELS[field]?.(targetType);
  const key = prefix ? `${prefix}.${text}` : null;
  return key && exists(key) ? t(key as 'audit.none') : text;
}

/** One before/after value: "—" for none, Sim/Não, a list, or the text (words and instants as shown elsewhere). */
export function Value({ text, context }: { text: string | null; context: ValueContext }) {
  const { t } = context;
  const value = readAuditValue(text);
  switch (value.kind) {
    case 'empty':
      return <span className={reportStyles.muted}>{t('audit.none')}</span>;
    case 'boolean':
      return <>{t(value.value ? 'audit.detail.yes' : 'audit.detail.no')}</>;
    case 'list':
      return value.items.length === 0 ? (
        <span className={reportStyles.muted}>{t('audit.detail.emptyList')}</span>
      ) : (
        <ul className={styles.list}>
          {value.items.map((item, index) => (
            <li key={index}>{item}</li>
          ))}
        </ul>
      );
    case 'text':
      return <>{valueText(value.text, context)}</>;
  }
}

export interface AuditDetailProps {
  record: AuditRecord | null;
  onClose: () => void;
  /** Narrows the list to this record's user or target (the dialog closes). */
  onFilter: (patch: Partial<AuditQuery>) => void;
  /** What the screen adds below the changes (its undo, src/ui/screens/audit/audit-undo.tsx). */
  children?: ReactNode;
}

/** A field's label (`audit.field.*`), else its name as recorded (a feature option, a field added later). */
export function fieldLabel(t: TFunction, exists: (key: string) => boolean, field: string): string {
  const key = `audit.field.${field}`;
  return exists(key) ? t(key as 'audit.field.name') : field;
}

/**
 * A record in a modal dialog: who, when, from where (address and request id), the operation and its
 * target, and a table of each changed field before and after. Escape or its close button closes it and focus
 * returns to the row's button.
 */
export function AuditDetail({ record, onClose, onFilter, children }: AuditDetailProps) {
  const { t } = useTranslation();
  return (
    <Modal
      isOpen={record !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      size="lg"
      title={record ? t('audit.detail.title', { id: record.id }) : ''}
    >
      {record ? (
        <AuditRecordBody record={record} onFilter={onFilter}>
          {children}
        </AuditRecordBody>
      ) : null}
    </Modal>
  );
}

/**
 * A record's facts, its changes and the "only this user / target" buttons: the dialog's content
 * ({@link AuditDetail}) and the audit screen's expanded row alike.
 */
export function AuditRecordBody({
  record,
  onFilter,
  children,
}: {
  record: AuditRecord;
  onFilter: (patch: Partial<AuditQuery>) => void;
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const changesId = useId();
  const none = <span className={reportStyles.muted}>{t('audit.none')}</span>;
  return (
    <>
      <dl className={styles.facts}>
        <dt className={styles.term}>{t('audit.detail.when')}</dt>
        <dd className={styles.value}>
          <time dateTime={record.at}>{formatDateTime(record.at, i18n.language)}</time>
        </dd>
        <dt className={styles.term}>{t('audit.detail.who')}</dt>
        <dd className={styles.value}>
          {[actorName(t, record), record.actor_email, record.actor_tenant_name].filter(Boolean).join(' · ')}
        </dd>
        <dt className={styles.term}>{t('audit.detail.address')}</dt>
        <dd className={styles.value}>
          {record.address ? <span className={styles.code}>{record.address}</span> : none}
        </dd>
        <dt className={styles.term}>{t('audit.detail.request')}</dt>
        <dd className={styles.value}>
          {record.request_id ? <span className={styles.code}>{record.request_id}</span> : none}
        </dd>
        <dt className={styles.term}>{t('audit.detail.operation')}</dt>
        <dd className={styles.value}>{t(`audit.operation.${record.operation}`)}</dd>
        <dt className={styles.term}>{t('audit.detail.target')}</dt>
        <dd className={styles.value}>{targetText(t, record)}</dd>
        <dt className={styles.term}>{t('audit.detail.tenant')}</dt>
        <dd className={styles.value}>{record.tenant_name ?? none}</dd>
      </dl>
      <section className={styles.section} aria-labelledby={changesId}>
        <h3 id={changesId} className={styles.heading}>
          {t('audit.detail.changes')}
        </h3>
        {record.changes.length === 0 ? (
          <p className={styles.value}>{t('audit.detail.noChanges')}</p>
        ) : (
          <table className={styles.diff}>
            <caption className={reportStyles.muted}>{t('audit.detail.changesLabel')}</caption>
            <thead>
              <tr>
                <th scope="col" className={styles.diffCell}>
                  {t('audit.detail.field')}
                </th>
                <th scope="col" className={styles.diffCell}>
                  {t('audit.detail.before')}
                </th>
                <th scope="col" className={styles.diffCell}>
                  {t('audit.detail.after')}
                </th>
              </tr>
            </thead>
            <tbody>
              {record.changes.map((change) => {
                const context: ValueContext = {
                  t,
                  exists: (key) => i18n.exists(key),
                  language: i18n.language,
                  field: change.field,
                  targetType: record.target_type,
                };
                return (
                  <tr key={change.field}>
                    <th scope="row" className={styles.diffCell}>
                      {fieldLabel(t, context.exists, change.field)}
                    </th>
                    <td className={styles.diffCell}>
                      <Value text={change.before} context={context} />
                    </td>
                    <td className={styles.diffCell}>
                      <Value text={change.after} context={context} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
      {children}
      {record.actor_user_id !== null || record.target_id !== null ? (
        <div className={styles.detailActions} role="group" aria-label={t('audit.detail.filters')}>
          {record.actor_user_id !== null ? (
            <Button variant="secondary" size="sm" onPress={() => onFilter({ actorId: record.actor_user_id })}>
              {t('audit.detail.filterActor')}
            </Button>
          ) : null}
          {record.target_id !== null ? (
            <Button
              variant="secondary"
              size="sm"
              onPress={() => onFilter({ targetType: record.target_type, targetId: record.target_id })}
            >
              {t('audit.detail.filterTarget')}
            </Button>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
