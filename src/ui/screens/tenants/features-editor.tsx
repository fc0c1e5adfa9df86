import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import {
  featureProgress,
  featureRows,
  unsavedFeatures,
  type FeatureBulkSnapshot,
  type featureBulkMachine,
} from '../../../machines/tenants/feature-bulk.machine';
import type { BulkProgress } from '../../../machines/shared/bulk-run';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { Checkbox, CheckboxGroup } from '../../components/checkbox';
import { ConflictNotice } from '../../components/conflict-notice/conflict-notice';
import type { ConflictField } from '../../../machines/shared/conflict';
import { ErrorState } from '../../components/error-state';
import { Spinner } from '../../components/spinner';
import { ItemResult, RunProgress, type BulkTexts } from './bulk-result';
import * as styles from './tenants.css';
import { useFeatureLabel } from './use-feature-label';

export type FeaturesActor = ActorRefFrom<typeof featureBulkMachine>;

const TEXTS: BulkTexts = {
  finished: 'features.editor.finished',
  running: 'features.editor.saving',
  progress: 'features.editor.progress',
  waiting: 'features.editor.waiting',
  failed: 'features.editor.failed',
  outcome: {
    success: 'features.editor.outcome.success',
    partial: 'features.editor.outcome.partial',
    error: 'features.editor.outcome.error',
    cancelled: 'features.editor.outcome.cancelled',
  },
};

const selectPhase = (s: FeatureBulkSnapshot) =>
  s.matches('loading')
    ? 'loading'
    : s.matches('loadFailed')
      ? 'failed'
      : s.matches('saving')
        ? 'saving'
        : s.matches('done')
          ? 'done'
          : s.matches('conflict') || s.matches('reapplying') || s.matches('discarding')
            ? 'conflict'
            : 'editing';
const selectResolving = (s: FeatureBulkSnapshot) =>
  s.matches('reapplying') ? 'reapply' : s.matches('discarding') ? 'discard' : null;
const sameFields = (a: readonly ConflictField[], b: readonly ConflictField[]) =>
  a.length === b.length && a.every((f, i) => f.field === b[i]?.field && f.after === b[i]?.after);
const sameProgress = (a: BulkProgress, b: BulkProgress) =>
  a.done === b.done && a.failed === b.failed && a.total === b.total;

/**
 * A tenant's features: tick them on or off, then one save sends one call per changed feature
 * (bounded concurrency) with a progress bar, each feature's result beside it, and a retry of only
 * the failed ones. Edits that did not reach the server stay in place. Anyone but back-office staff
 * reads them: the boxes are read-only and a note says who changes them.
 */
export function FeaturesEditor({ actor, tenantName }: { actor: FeaturesActor; tenantName: string }) {
  const { t } = useTranslation();
  const featureLabel = useFeatureLabel();
  const phase = useSelector(actor, selectPhase);
  const rows = useSelector(actor, featureRows);
  const progress = useSelector(actor, featureProgress, sameProgress);
  const outcome = useSelector(actor, (s) => s.context.run.outcome);
  const error = useSelector(actor, (s) => s.context.error);
  const staff = useSelector(actor, (s) => s.context.staff);
  const conflict = useSelector(actor, (s) => s.context.conflict);
  const resolving = useSelector(actor, selectResolving);
  const mine = useSelector(actor, (s) => unsavedFeatures(s.context), sameFields);
  const changes = rows.filter((row) => row.changed).length;
  const saving = phase === 'saving';
  // The notice waits for a choice: the ticks are held and no save is offered.
  const held = phase === 'conflict';

  if (phase === 'loading') {
    return (
      <div className={styles.loading}>
        <Spinner label={t('common.loading')} />
        <span aria-hidden="true">{t('common.loading')}</span>
      </div>
    );
  }
  if (phase === 'failed') {
    return (
      <ErrorState
        title={error ? t(error.key) : undefined}
        description={error ? t(error.reason) : undefined}
        onRetry={() => actor.send({ type: 'features.reload' })}
      />
    );
  }

  if (!staff) return <FeaturesList actor={actor} tenantName={tenantName} />;

  return (
    <div className={styles.section}>
      <p className={styles.muted}>{t('features.editor.intro')}</p>
      {conflict ? (
        <ConflictNotice
          conflict={conflict}
          mine={mine}
          targetType="tenant"
          fieldName={featureLabel}
          resolving={resolving}
          onReapply={() => actor.send({ type: 'conflict.reapply' })}
          onDiscard={() => actor.send({ type: 'conflict.discard' })}
          onDismiss={() => actor.send({ type: 'conflict.dismiss' })}
        />
      ) : null}
      {held && error ? (
        <p className={styles.notice} role="alert">
          {t('tenants.screen.failure', { what: t(error.key), why: t(error.reason) })}
        </p>
      ) : null}
      <CheckboxGroup
        label={t('features.editor.listLabel', { name: tenantName })}
        value={rows.filter((row) => row.enabled).map((row) => row.option)}
        onChange={(next) => {
          for (const row of rows) {
            const enabled = next.includes(row.option);
            if (enabled !== row.enabled) actor.send({ type: 'features.set', option: row.option, enabled });
          }
        }}
        isDisabled={saving || held}
      >
        {rows.map((row) => (
          <div key={row.option} className={styles.featureRow}>
            <Checkbox value={row.option}>{featureLabel(row.option)}</Checkbox>
            <span className={styles.actions}>
              {row.changed ? <Badge tone="warning">{t('features.editor.changed')}</Badge> : null}
              <ItemResult
                result={row.result}
                running={saving}
                okText={() => t('features.editor.saved')}
                texts={TEXTS}
              />
            </span>
          </div>
        ))}
      </CheckboxGroup>
      <RunProgress progress={progress} outcome={outcome} texts={TEXTS} />
      <p className={styles.muted} aria-live="polite">
        {changes > 0 ? t('features.editor.pendingChanges', { count: changes }) : t('features.editor.noChanges')}
      </p>
      {held ? null : (
        <div className={styles.actions}>
          {saving ? (
            <Button variant="secondary" onPress={() => actor.send({ type: 'features.cancel' })}>
              {t('features.editor.cancel')}
            </Button>
          ) : null}
          {phase === 'done' && progress.failed > 0 ? (
            <Button onPress={() => actor.send({ type: 'features.retry' })}>
              {t('features.editor.retry', { count: progress.failed })}
            </Button>
          ) : null}
          {phase === 'done' && progress.failed > 0 ? null : (
            <Button
              isPending={saving}
              pendingLabel={t('tenants.screen.form.saving')}
              isDisabled={changes === 0 && !saving}
              onPress={() => {
                if (phase === 'done') actor.send({ type: 'features.dismiss' });
                actor.send({ type: 'features.save' });
              }}
            >
              {t('features.save')}
            </Button>
          )}
          <Button
            variant="ghost"
            isDisabled={changes === 0 || saving}
            onPress={() => actor.send({ type: 'features.reset' })}
          >
            {t('features.editor.discard')}
          </Button>
        </div>
      )}
    </div>
  );
}

/**
 * The features as a customer reads them: each one with its state in words, and a note on who changes
 * them. No control at all, so nothing invites a change the server would refuse.
 */
function FeaturesList({ actor, tenantName }: { actor: FeaturesActor; tenantName: string }) {
  const { t } = useTranslation();
  const featureLabel = useFeatureLabel();
  const rows = useSelector(actor, featureRows);
  return (
    <div className={styles.section}>
      <p className={styles.notice}>{t('features.editor.readOnly')}</p>
      <ul className={styles.results} aria-label={t('features.editor.listLabel', { name: tenantName })}>
        {rows.map((row) => (
          <li key={row.option} className={styles.featureRow}>
            <span>{featureLabel(row.option)}</span>
            <Badge tone={row.enabled ? 'success' : 'neutral'}>
              {t(row.enabled ? 'features.editor.on' : 'features.editor.off')}
            </Badge>
          </li>
        ))}
      </ul>
    </div>
  );
}
