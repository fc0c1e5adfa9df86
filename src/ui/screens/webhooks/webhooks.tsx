import { useActorRef, useSelector } from '@xstate/react';
import type { TFunction } from 'i18next';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { formatDateTime } from '../../../domain/format';
import { getHref } from '../../../domain/paths';
import { DELIVERY_STATES, type WebhookHistoryQuery } from '../../../machines/webhooks/webhook-history-query';
import {
  shownRuns,
  webhookHistoryMachine,
  type WebhookDelivery,
  type WebhookHistorySnapshot,
} from '../../../machines/webhooks/webhook-history.machine';
import { runOpen, type WebhookRun } from '../../../machines/webhooks/webhook-runs-live';
import { WEBHOOK_TYPES } from '../../../machines/webhooks/webhook-endpoint-checks';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ErrorState } from '../../components/error-state';
import { FilterSelect } from '../../components/filter-select';
import { Link } from '../../components/link';
import { ProgressBar } from '../../components/progress-bar';
import * as reportStyles from '../../components/reports/report-layout.css';
import { Spinner } from '../../components/spinner';
import { useServices } from '../../hooks/services-context';
import { useAddressSync } from '../../hooks/use-address-sync';
import { DeliveryDetail, outcomeText, RunCounters, runTitle, StateBadge } from './webhook-history-parts';
import * as styles from './webhooks.css';

type HistoryActor = ReturnType<typeof useActorRef<typeof webhookHistoryMachine>>;

const selectListState = (s: WebhookHistorySnapshot) => {
  const list = s.value.list;
  return typeof list === 'string' ? list : 'ready';
};

/** The address of the tenant panel's Webhooks tab, where endpoints are added. */
const panelHref = (tenant: string) => getHref('tenants', undefined, { panel: 'webhooks', tenant });

function RunItem({ run, actor, tenant }: { run: WebhookRun; actor: HistoryActor; tenant: string }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const listState = useSelector(actor, selectListState);
  const pending = useSelector(actor, (s) => s.context.pendingId === run.id && listState === 'redeliveringRun');
  const failure = useSelector(actor, (s) =>
    s.context.actionError?.target === 'run' && s.context.actionError.id === run.id ? s.context.actionError.error : null,
  );
  const [confirming, setConfirming] = useState(false);
  const open = runOpen(run);
  const title = runTitle(t, locale, run);
  return (
    <li className={styles.run} aria-label={title}>
      <p className={styles.counters}>
        <strong>{title}</strong>
        <time dateTime={run.created_at}>{formatDateTime(run.created_at, locale)}</time>
        {run.created_by ? <span>{t('webhooks.run.by', { name: run.created_by.name })}</span> : null}
      </p>
      {open ? (
        <ProgressBar
          label={t('webhooks.run.progressLabel', { id: run.id })}
          value={run.total - run.pending}
          maxValue={Math.max(1, run.total)}
          valueLabel={t('webhooks.run.settled', { done: run.total - run.pending, total: run.total })}
        />
      ) : null}
      <RunCounters run={run} />
      <div className={styles.actions}>
        <Link href={`${getHref('webhooks')}?${new URLSearchParams({ tenant, run: String(run.id) }).toString()}`}>
          {t('webhooks.run.deliveries')}
        </Link>
        {run.failed > 0 ? (
          <Button
            size="sm"
            variant="secondary"
            isPending={pending}
            pendingLabel={t('common.loading')}
            isDisabled={listState !== 'ready' && !pending}
            onPress={() => setConfirming(true)}
          >
            {t('webhooks.run.redeliverFailed', { count: run.failed })}
          </Button>
        ) : null}
      </div>
      {failure ? (
        <p className={styles.error} role="alert">
          {t(failure.key)} {t(failure.reason)}
        </p>
      ) : null}
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title={t('webhooks.run.confirmTitle')}
        message={t('webhooks.run.confirmMessage', { count: run.failed, title })}
        confirmLabel={t('webhooks.run.confirm')}
        onConfirm={() => {
          setConfirming(false);
          actor.send({ type: 'history.redeliverFailed', runId: run.id });
        }}
      />
    </li>
  );
}

function deliveryColumns(
  t: TFunction,
  locale: string,
  actor: HistoryActor,
  openId: number | null,
  busyId: number | null,
  busy: boolean,
): DataTableColumn<WebhookDelivery>[] {
  return [
    { id: 'state', header: t('webhooks.history.columns.state'), cell: (d) => <StateBadge state={d.state} /> },
    {
      id: 'delivery',
      header: t('webhooks.history.columns.delivery'),
      isRowHeader: true,
      cell: (d) => t('webhooks.history.deliveryName', { id: d.id, type: t(`webhooks.types.${d.type}`) }),
    },
    {
      id: 'endpoint',
      header: t('webhooks.history.columns.endpoint'),
      cell: (d) => (
        <span className={styles.address}>
          {d.endpoint.url}
          {d.endpoint.deleted ? ` (${t('webhooks.history.endpointDeleted')})` : ''}
        </span>
      ),
    },
    { id: 'attempts', header: t('webhooks.history.columns.attempts'), align: 'end', cell: (d) => d.attempts },
    {
      id: 'last',
      header: t('webhooks.history.columns.last'),
      cell: (d) =>
        d.attempts === 0 ? (
          '—'
        ) : (
          <span className={styles.answer}>{outcomeText(t, d.last_status_code, d.last_error)}</span>
        ),
    },
    {
      id: 'next',
      header: t('webhooks.history.columns.next'),
      cell: (d) =>
        d.next_attempt_at ? (
          <time dateTime={d.next_attempt_at} className={styles.nowrap}>
            {formatDateTime(d.next_attempt_at, locale)}
          </time>
        ) : (
          '—'
        ),
    },
    {
      id: 'actions',
      header: t('common.actions'),
      cell: (d) => (
        <div className={styles.actions}>
          <Button
            size="sm"
            variant="ghost"
            aria-expanded={openId === d.id}
            onPress={() => actor.send({ type: 'history.open', id: d.id })}
          >
            {t('webhooks.history.showDetail')}
          </Button>
          {d.state === 'failed' || d.state === 'succeeded' ? (
            <Button
              size="sm"
              variant="secondary"
              isPending={busyId === d.id}
              pendingLabel={t('common.loading')}
              isDisabled={busy && busyId !== d.id}
              aria-label={t('webhooks.history.redeliverLabel', { id: d.id })}
              onPress={() => actor.send({ type: 'history.redeliver', id: d.id })}
            >
              {t('webhooks.history.redeliver')}
            </Button>
          ) : null}
        </div>
      ),
    },
  ];
}

function Filters({ actor }: { actor: HistoryActor }) {
  const { t } = useTranslation();
  const query = useSelector(actor, (s) => s.context.query);
  const endpoints = useSelector(actor, (s) => s.context.endpoints);
  const filter = (patch: Partial<Omit<WebhookHistoryQuery, 'tenant'>>) => actor.send({ type: 'history.filter', patch });
  const any = { value: '', label: t('webhooks.history.filters.any') };
  return (
    <div className={styles.filters}>
      <FilterSelect
        className={styles.filter}
        label={t('webhooks.history.filters.state')}
        value={query.state ?? ''}
        options={[any, ...DELIVERY_STATES.map((state) => ({ value: state, label: t(`webhooks.states.${state}`) }))]}
        onChange={(value) => filter({ state: DELIVERY_STATES.find((s) => s === value) ?? null })}
      />
      <FilterSelect
        className={styles.filter}
        label={t('webhooks.history.filters.type')}
        value={query.type ?? ''}
        options={[any, ...WEBHOOK_TYPES.map((type) => ({ value: type, label: t(`webhooks.types.${type}`) }))]}
        onChange={(value) => filter({ type: WEBHOOK_TYPES.find((s) => s === value) ?? null })}
      />
      <FilterSelect
        className={styles.filter}
        label={t('webhooks.history.filters.endpoint')}
        value={query.endpoint === null ? '' : String(query.endpoint)}
        options={[
          any,
          ...endpoints.map((e) => ({ value: String(e.id), label: e.url })),
          // An endpoint named by the address but no longer listed (deleted) still shows as chosen.
          ...(query.endpoint !== null && !endpoints.some((e) => e.id === query.endpoint)
            ? [
                {
                  value: String(query.endpoint),
                  label: t('webhooks.history.filters.endpointId', { id: query.endpoint }),
                },
              ]
            : []),
        ]}
        onChange={(value) => filter({ endpoint: value === '' ? null : Number(value) })}
      />
      {query.run !== null ? (
        <Button size="sm" variant="secondary" onPress={() => filter({ run: null })}>
          {t('webhooks.history.filters.clearRun', { id: query.run })}
        </Button>
      ) : null}
    </div>
  );
}

/**
 * `/webhooks?tenant=&run=&endpoint=&state=&type=`: a tenant's webhook history (docs/webhooks.md). Its
 * runs newest first with live counters and "Reenviar com falha"; its deliveries under the address's
 * filters, each with its state, attempts, last answer and next attempt, "Reenviar", and its detail
 * (body and every attempt) under its row.
 */
export default function WebhooksScreen() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const { clients, bus, tenant, realtime } = useServices();
  const search = useSearch();
  const actor = useActorRef(webhookHistoryMachine, {
    input: { rest: clients.rest, search, defaultTenant: tenant(), bus, socket: realtime.current()?.socket ?? null },
  });
  useAddressSync(actor, { emitted: 'history.queryChanged', location: 'history.location' });
  const listState = useSelector(actor, selectListState);
  const runs = useSelector(
    actor,
    (s) => shownRuns(s.context),
    (a, b) => a.length === b.length && a.every((r, i) => r === b[i]),
  );
  const runsNext = useSelector(actor, (s) => s.context.runsNext);
  const deliveries = useSelector(actor, (s) => s.context.deliveries);
  const deliveriesNext = useSelector(actor, (s) => s.context.deliveriesNext);
  const error = useSelector(actor, (s) => s.context.error);
  const moreError = useSelector(actor, (s) => s.context.moreError);
  const detail = useSelector(actor, (s) => s.context.detail);
  const notice = useSelector(actor, (s) => s.context.notice);
  const deliveryFailure = useSelector(actor, (s) =>
    s.context.actionError?.target === 'delivery' ? s.context.actionError : null,
  );
  const pendingId = useSelector(actor, (s) => (s.matches({ list: 'redelivering' }) ? s.context.pendingId : null));
  const tenantName = useSelector(actor, (s) => s.context.query.tenant ?? s.context.defaultTenant);
  const busy = listState !== 'ready';
  const runsHeading = useId();
  const deliveriesHeading = useId();
  const columns = useMemo(
    () => deliveryColumns(t, locale, actor, detail?.id ?? null, pendingId, busy),
    [t, locale, actor, detail?.id, pendingId, busy],
  );

  if (listState === 'failed' && error) {
    return (
      <div className={reportStyles.screen}>
        <ErrorState
          title={t(error.key)}
          description={t(error.reason)}
          onRetry={() => actor.send({ type: 'history.reload' })}
        />
      </div>
    );
  }

  return (
    <div className={reportStyles.screen}>
      <p className={reportStyles.intro}>{t('webhooks.history.intro', { tenant: tenantName })}</p>
      <p className={styles.actions}>
        <Link href={panelHref(tenantName)}>{t('webhooks.history.endpointsLink')}</Link>
      </p>
      {notice ? (
        <div className={styles.info} role="status">
          <span>
            {notice.kind === 'redelivered'
              ? t('webhooks.history.redelivered', { id: notice.id })
              : t('webhooks.history.requeued', { requeued: notice.requeued, skipped: notice.skipped })}
          </span>
          <Button size="sm" variant="ghost" onPress={() => actor.send({ type: 'history.dismissNotice' })}>
            {t('common.close')}
          </Button>
        </div>
      ) : null}
      {deliveryFailure ? (
        <div className={styles.notice} role="alert">
          <span>
            {t(deliveryFailure.error.key, { id: deliveryFailure.id })} {t(deliveryFailure.error.reason)}
          </span>
          {deliveryFailure.error.reason === 'webhooks.refusals.endpointPaused' ? (
            <Link href={panelHref(tenantName)}>{t('webhooks.history.resumeLink')}</Link>
          ) : null}
        </div>
      ) : null}

      <section className={styles.section} aria-labelledby={runsHeading}>
        <h2 id={runsHeading} className={styles.heading}>
          {t('webhooks.history.runsTitle')}
        </h2>
        {listState === 'loading' ? (
          <Spinner label={t('common.loading')} />
        ) : runs.length === 0 ? (
          <p className={styles.muted}>{t('webhooks.history.noRuns')}</p>
        ) : (
          <ul className={styles.runs} aria-labelledby={runsHeading}>
            {runs.map((run) => (
              <RunItem key={run.id} run={run} actor={actor} tenant={tenantName} />
            ))}
          </ul>
        )}
        {runsNext !== null ? (
          <div className={styles.footer}>
            <Button
              variant="secondary"
              isPending={listState === 'moreRuns'}
              isDisabled={busy && listState !== 'moreRuns'}
              onPress={() => actor.send({ type: 'history.moreRuns' })}
            >
              {t('webhooks.history.moreRuns')}
            </Button>
          </div>
        ) : null}
      </section>

      <section className={styles.section} aria-labelledby={deliveriesHeading}>
        <h2 id={deliveriesHeading} className={styles.heading}>
          {t('webhooks.history.deliveriesTitle')}
        </h2>
        <Filters actor={actor} />
        <DataTable
          aria-labelledby={deliveriesHeading}
          columns={columns}
          rows={deliveries}
          status={listState === 'loading' || listState === 'refreshing' ? 'loading' : 'ready'}
          renderExpanded={(delivery) =>
            detail && delivery.id === detail.id ? (
              <section className={styles.detail} aria-label={t('webhooks.history.detail.title', { id: delivery.id })}>
                {detail.data ? (
                  <DeliveryDetail detail={detail.data} />
                ) : detail.error ? (
                  <p className={styles.error} role="alert">
                    {t(detail.error.key)} {t(detail.error.reason)}
                  </p>
                ) : (
                  <Spinner label={t('common.loading')} />
                )}
              </section>
            ) : null
          }
          emptyState={
            <EmptyState
              title={t('webhooks.history.noDeliveries')}
              description={t('webhooks.history.noDeliveriesHint')}
            />
          }
        />
        <div className={styles.footer}>
          {deliveriesNext !== null ? (
            <Button
              variant="secondary"
              isPending={listState === 'moreDeliveries'}
              isDisabled={busy && listState !== 'moreDeliveries'}
              onPress={() => actor.send({ type: 'history.moreDeliveries' })}
            >
              {t('webhooks.history.moreDeliveries')}
            </Button>
          ) : null}
          {moreError ? (
            <p className={styles.error} role="alert">
              {t(moreError.key)} {t(moreError.reason)}
            </p>
          ) : null}
        </div>
      </section>
    </div>
  );
}
