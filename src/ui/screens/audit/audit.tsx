import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { formatNumber } from '../../../domain/format';
import {
  auditMachine,
  selectAuditStatus,
  selectLoadingMore,
  type AuditRecord,
} from '../../../machines/audit/audit.machine';
import { selectUser } from '../../../machines/session/session-selectors';
import { Button } from '../../components/button';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ErrorState } from '../../components/error-state';
import * as reportStyles from '../../components/reports/report-layout.css';
import { VisuallyHidden } from '../../components/visually-hidden';
import { useServices, useSession } from '../../hooks/services-context';
import { useAddressSync } from '../../hooks/use-address-sync';
import { AuditRecordBody } from '../../components/audit-record/audit-detail';
import { AuditUndo } from './audit-undo';
import {
  AUDIT_EXPORT_TEXTS,
  ListExportButton,
  ListExportStatus,
  useListExport,
} from '../../components/reports/list-export';
import { AuditFilters } from './audit-filters';
import { auditRowColumns, recordDetailsId } from './audit-rows';
import * as styles from './audit.css';
import { ListViewsBar, useListViews } from '../../components/views/list-views';

/**
 * `/audit`: the audit log (docs/product.md, Audit log), newest first under the filters of the
 * address, one line per record, "Carregar mais" for the next page, CSV export of the filters, a record's
 * details expanded under its row (the before/after of each field, docs/panel.md, Audit log), and new
 * records live over the socket (`AuditRecorded`).
 */
export default function AuditScreen() {
  const { t, i18n } = useTranslation();
  const { clients, bus } = useServices();
  const staff = useSession((s) => Boolean(selectUser(s)?.origin_backoffice));
  const search = useSearch();
  const actor = useActorRef(auditMachine, { input: { rest: clients.rest, bus, search } });
  // Applying filters replaces the query string (a reload keeps them); an address changed elsewhere reloads if it differs.
  useAddressSync(actor, { emitted: 'audit.queryChanged', location: 'audit.location' });
  const exporter = useListExport();
  const records = useSelector(actor, (s) => s.context.records);
  const query = useSelector(actor, (s) => s.context.query);
  const next = useSelector(actor, (s) => s.context.next);
  const error = useSelector(actor, (s) => s.context.error);
  const moreError = useSelector(actor, (s) => s.context.moreError);
  const unseen = useSelector(actor, (s) => s.context.unseen);
  const added = useSelector(actor, (s) => s.context.added);
  const status = useSelector(actor, selectAuditStatus);
  const loadingMore = useSelector(actor, selectLoadingMore);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  // The record whose details show under its row (one at a time).
  const [open, setOpen] = useState<number | null>(null);
  const toggle = (record: AuditRecord) => setOpen((id) => (id === record.id ? null : record.id));
  const endRef = useRef<HTMLParagraphElement>(null);
  const locale = i18n.language;
  const views = useListViews('audit');
  const hidden = views.hidden;
  const columns = useMemo(
    () => auditRowColumns(t, locale, open, toggle).filter((c) => !hidden.includes(c.id)),
    [t, locale, hidden, open],
  );

  // "Carregar mais" reached the end and went away: focus goes to the line that says so.
  useEffect(() => {
    if (added?.kind === 'more' && next === null) endRef.current?.focus();
  }, [added, next]);

  const count = formatNumber(records.length, locale);
  const announcement =
    unseen > 0
      ? t('audit.unseen', { count: unseen })
      : added?.kind === 'more'
        ? t('audit.loadedMore', { count: added.count })
        : added?.kind === 'live' && added.count > 0
          ? t('audit.loadedLive', { count: added.count })
          : '';

  return (
    <div className={reportStyles.screen}>
      <p className={reportStyles.intro}>{t('audit.intro')}</p>
      <AuditFilters
        actor={actor}
        staff={staff}
        exportButton={
          <ListExportButton actor={exporter} request={() => ({ list: 'audit', query })} texts={AUDIT_EXPORT_TEXTS} />
        }
      />
      <ListExportStatus actor={exporter} texts={AUDIT_EXPORT_TEXTS} />
      <ListViewsBar views={views} />
      {unseen > 0 ? (
        <div className={styles.notice}>
          <span>{t('audit.unseen', { count: unseen })}</span>
          <Button variant="secondary" size="sm" onPress={() => actor.send({ type: 'audit.showNew' })}>
            {t('audit.showNew')}
          </Button>
        </div>
      ) : null}
      <DataTable
        aria-label={t('audit.tableLabel')}
        columns={columns}
        rows={records}
        status={status}
        onRowAction={(key) => setOpen((id) => (id === key ? null : Number(key)))}
        renderExpanded={(record) =>
          record.id === open ? (
            <section
              id={recordDetailsId(record.id)}
              aria-label={t('audit.detail.title', { id: record.id })}
              className={styles.details}
            >
              <AuditRecordBody
                record={record}
                onFilter={(patch) => {
                  setOpen(null);
                  actor.send({ type: 'audit.draft', patch });
                  actor.send({ type: 'audit.apply' });
                }}
              >
                <AuditUndo record={record} onUndone={() => actor.send({ type: 'audit.reload' })} />
              </AuditRecordBody>
            </section>
          ) : null
        }
        emptyState={<EmptyState title={t('audit.empty')} description={t('audit.emptyHint')} />}
        errorState={
          <ErrorState
            title={error ? t(error.key) : undefined}
            description={error ? t(error.reason) : undefined}
            onRetry={() => actor.send({ type: 'audit.reload' })}
            isRetrying={busy}
          />
        }
      />
      {status === 'ready' && records.length > 0 ? (
        <div className={styles.footer}>
          <span>{t('audit.shown', { count: records.length, rows: count })}</span>
          {next !== null ? (
            <Button variant="secondary" onPress={() => actor.send({ type: 'audit.more' })} isPending={loadingMore}>
              {t('audit.more')}
            </Button>
          ) : (
            <p ref={endRef} tabIndex={-1} className={styles.value}>
              {t('audit.end')}
            </p>
          )}
          {moreError ? (
            <p className={styles.error} role="alert">
              {t(moreError.key)} {t(moreError.reason)}
            </p>
          ) : null}
        </div>
      ) : null}
      <VisuallyHidden>
        <span role="status">{announcement}</span>
      </VisuallyHidden>
    </div>
  );
}
