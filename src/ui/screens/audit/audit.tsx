import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useMemo, useReducer, useRef, useState, type FocusEvent, type RefObject } from 'react';
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
import { ArrowUpIcon } from '../../components/icons';
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
 * Whether the user is engaged with the list inside `area` (docs/product.md, Audit log, Live): the
 * pointer over it, focus in it, a record expanded, or the page scrolled past its top (`top`, the line
 * above the table, out of view above). Live records then wait behind the notice instead of moving the
 * rows being read or pointed at. `onChange` hears each change (after the render that made it).
 */
function useEngagement(
  area: RefObject<HTMLDivElement | null>,
  top: RefObject<HTMLDivElement | null>,
  expanded: boolean,
  onChange: (engaged: boolean) => void,
) {
  const [pointer, setPointer] = useState(false);
  const [scrolled, setScrolled] = useState(false);
  // Focus in the area: a ref set by focus and blur (moves inside the area render nothing), `touch` renders.
  const focus = useRef(false);
  const [, touch] = useReducer((n: number) => n + 1, 0);
  // The native enter and leave of the area itself (React's are made from over/out and their related target).
  useEffect(() => {
    const el = area.current;
    if (!el) return;
    const enter = () => setPointer(true);
    const leave = () => setPointer(false);
    el.addEventListener('pointerenter', enter);
    el.addEventListener('pointerleave', leave);
    return () => {
      el.removeEventListener('pointerenter', enter);
      el.removeEventListener('pointerleave', leave);
    };
  }, [area]);
  useEffect(() => {
    const line = top.current;
    if (!line || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => {
      if (entry) setScrolled(!entry.isIntersecting && entry.boundingClientRect.bottom <= (entry.rootBounds?.top ?? 0));
    });
    observer.observe(line);
    return () => observer.disconnect();
  }, [top]);
  const told = useRef(false);
  useEffect(() => {
    // After every render: a focused control the render removed (rows replaced, the notice gone) fires no blur.
    if (focus.current && !area.current?.contains(document.activeElement)) focus.current = false;
    const engaged = pointer || scrolled || expanded || focus.current;
    if (engaged === told.current) return;
    told.current = engaged;
    onChange(engaged);
  });
  return {
    onFocus: () => {
      if (focus.current) return;
      focus.current = true;
      touch();
    },
    onBlur: (event: FocusEvent<HTMLDivElement>) => {
      if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
      focus.current = false;
      touch();
    },
  };
}

/**
 * `/audit`: the audit log (docs/product.md, Audit log), newest first under the filters of the
 * address, one line per record, "Carregar mais" for the next page, CSV export of the filters, a record's
 * details expanded under its row (the before/after of each field, docs/panel.md, Audit log), and new
 * records live over the socket (`AuditRecorded`): at the top at once while the user is not engaged
 * with the list ({@link useEngagement}), else counted in a notice above the table, in a line that is
 * there anyway (the views and columns), so that neither the records nor the notice move the rows.
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
  const areaRef = useRef<HTMLDivElement>(null);
  const topRef = useRef<HTMLDivElement>(null);
  const heldId = useId();
  // A record expanded in a page no longer shown ("show new" went back to the first) holds nothing.
  const expanded = open !== null && records.some((r) => r.id === open);
  const handlers = useEngagement(areaRef, topRef, expanded, (engaged) =>
    actor.send({ type: engaged ? 'audit.engage' : 'audit.release' }),
  );
  const showNew = () => {
    actor.send({ type: 'audit.showNew' });
    // The button goes with the notice: focus goes to the table (its remembered row, else the first).
    areaRef.current?.querySelector<HTMLElement>('[role=grid]')?.focus();
  };
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
      <div ref={areaRef} className={styles.area} {...handlers}>
        <div ref={topRef} className={styles.toolbar}>
          <div className={styles.held}>
            {unseen > 0 ? (
              <>
                <span id={heldId} className={styles.heldCount}>
                  <ArrowUpIcon className={styles.heldIcon} />
                  {t('audit.held', { count: unseen })}
                </span>
                <Button variant="secondary" size="sm" aria-describedby={heldId} onPress={showNew}>
                  {t('audit.showNew')}
                </Button>
              </>
            ) : null}
          </div>
          <ListViewsBar views={views} />
        </div>
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
      </div>
      <VisuallyHidden>
        <span role="status">{announcement}</span>
      </VisuallyHidden>
    </div>
  );
}
