import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { BulkProgress } from '../../../machines/shared/bulk-run';
import {
  CAMPAIGN_STATUS_TYPES,
  webhookProgress,
  type WebhookGenerationSnapshot,
  type webhookGenerationMachine,
} from '../../../machines/tenants/webhook-generation.machine';
import { historyHref } from '../../../machines/webhooks/webhook-history-query';
import type { WebhookRun } from '../../../machines/webhooks/webhook-runs-live';
import { Button } from '../../components/button';
import { Link } from '../../components/link';
import { ProgressBar } from '../../components/progress-bar';
import { MultiSelect } from '../../components/multi-select';
import { RangeField } from '../../components/range-field';
import { ItemResult, RunProgress, type BulkTexts } from './bulk-result';
import * as styles from './tenants.css';

export type WebhooksActor = ActorRefFrom<typeof webhookGenerationMachine>;

const TEXTS: BulkTexts = {
  finished: 'webhooks.generator.finished',
  running: 'webhooks.generator.running',
  progress: 'webhooks.generator.progress',
  waiting: 'webhooks.generator.waiting',
  failed: 'webhooks.generator.failed',
  outcome: {
    success: 'webhooks.generator.outcome.success',
    partial: 'webhooks.generator.outcome.partial',
    error: 'webhooks.generator.outcome.error',
    cancelled: 'webhooks.generator.outcome.cancelled',
  },
};

const selectPhase = (s: WebhookGenerationSnapshot) =>
  s.matches('running') ? 'running' : s.matches('done') ? 'done' : 'editing';
const sameProgress = (a: BulkProgress, b: BulkProgress) =>
  a.done === b.done && a.failed === b.failed && a.total === b.total;

/** A run's counters as they arrive (the socket's `WebhookRunProgress`, docs/webhooks.md), and its history. */
function RunLine({ run, runId, tenantName }: { run: WebhookRun | undefined; runId: number; tenantName: string }) {
  const { t } = useTranslation();
  return (
    <div className={styles.runLine}>
      {run ? (
        <>
          <ProgressBar
            label={t('webhooks.run.progressLabel', { id: runId })}
            value={run.total - run.pending}
            maxValue={Math.max(1, run.total)}
            valueLabel={t('webhooks.run.settled', { done: run.total - run.pending, total: run.total })}
          />
          <p className={styles.muted}>
            {t('webhooks.run.counters', {
              succeeded: run.succeeded,
              failed: run.failed,
              pending: run.pending,
              cancelled: run.cancelled,
            })}
            {run.finished_at ? ` ${t('webhooks.run.finished')}` : ''}
          </p>
        </>
      ) : null}
      <Link href={historyHref(tenantName, { run: runId })}>{t('webhooks.run.history')}</Link>
    </div>
  );
}

/**
 * Campaign-status webhooks for one tenant: the status types (multi-select) and the period, then one
 * call per type with progress, each type's deliveries or failure, and a retry of only the failed types.
 */
export function WebhooksGenerator({ actor, tenantName }: { actor: WebhooksActor; tenantName: string }) {
  const { t } = useTranslation();
  const phase = useSelector(actor, selectPhase);
  const selected = useSelector(actor, (s) => s.context.selected);
  const startAt = useSelector(actor, (s) => s.context.startAt);
  const finishAt = useSelector(actor, (s) => s.context.finishAt);
  const invalid = useSelector(actor, (s) => s.context.invalid);
  const entries = useSelector(actor, (s) => s.context.run.entries);
  const outcome = useSelector(actor, (s) => s.context.run.outcome);
  const progress = useSelector(actor, webhookProgress, sameProgress);
  const liveRuns = useSelector(actor, (s) => s.context.live.runs);
  const noEndpoint = entries.some(
    (entry) => entry.result?.status === 'failed' && entry.result.reason === 'webhooks.refusals.noEndpoint',
  );
  const running = phase === 'running';
  const typeItems = CAMPAIGN_STATUS_TYPES.map((type) => ({ id: type, label: t(`webhooks.types.${type}`) }));

  return (
    <div className={styles.section}>
      <h3 className={styles.sectionTitle}>{t('webhooks.title')}</h3>
      <p className={styles.muted}>{t('webhooks.generator.intro')}</p>
      <div className={styles.fields}>
        <MultiSelect
          label={t('webhooks.generator.types')}
          items={typeItems}
          value={selected}
          onChange={(next) => {
            for (const type of CAMPAIGN_STATUS_TYPES) {
              if (next.includes(type) !== selected.includes(type))
                actor.send({ type: 'webhooks.toggleType', webhookType: type });
            }
          }}
          isDisabled={running}
          isInvalid={invalid === 'webhooks.errors.noType'}
          errorMessage={invalid === 'webhooks.errors.noType' ? t(invalid) : undefined}
        />
        <RangeField
          label={t('webhooks.generator.range')}
          startAt={startAt}
          finishAt={finishAt}
          onChange={(start, finish) => actor.send({ type: 'webhooks.range', startAt: start, finishAt: finish })}
          errorMessage={invalid === 'webhooks.errors.range' ? t(invalid) : null}
          isDisabled={running}
        />
      </div>
      <RunProgress progress={progress} outcome={outcome} texts={TEXTS} />
      {entries.length > 0 ? (
        <ul className={styles.results} aria-label={t('webhooks.generator.resultsLabel')}>
          {entries.map((entry) => (
            <li key={entry.item.type} className={styles.result}>
              <span>{t(`webhooks.types.${entry.item.type}`)}</span>
              <ItemResult
                result={entry.result}
                running={running}
                okText={(value) => t('webhooks.generator.deliveries', { count: value.deliveries })}
                texts={TEXTS}
              />
              {entry.result?.status === 'ok' ? (
                <RunLine
                  run={liveRuns[entry.result.value.deliveryId]}
                  runId={entry.result.value.deliveryId}
                  tenantName={tenantName}
                />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {noEndpoint ? (
        <p className={styles.notice} role="note">
          {t('webhooks.generator.noEndpointHint')}
        </p>
      ) : null}
      <div className={styles.actions}>
        {running ? (
          <Button variant="secondary" onPress={() => actor.send({ type: 'webhooks.cancel' })}>
            {t('webhooks.generator.cancel')}
          </Button>
        ) : null}
        {phase === 'done' && progress.failed > 0 ? (
          <Button onPress={() => actor.send({ type: 'webhooks.retry' })}>
            {t('webhooks.generator.retry', { count: progress.failed })}
          </Button>
        ) : null}
        {phase === 'done' ? (
          <Button variant="secondary" onPress={() => actor.send({ type: 'webhooks.dismiss' })}>
            {t('webhooks.generator.newRun')}
          </Button>
        ) : (
          <Button
            isPending={running}
            pendingLabel={t('common.loading')}
            onPress={() => actor.send({ type: 'webhooks.generate' })}
          >
            {t('webhooks.generate')}
          </Button>
        )}
      </div>
    </div>
  );
}
