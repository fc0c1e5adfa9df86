import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { formatDate, formatDuration, formatNumber } from '../../../domain/format';
import type { syncAnalyticsMachine } from '../../../machines/tenants/sync-analytics.machine';
import { Button } from '../../components/button';
import { FormError } from '../../components/form';
import { RangeField } from '../../components/range-field';
import { Switch } from '../../components/switch';
import * as styles from './tenants.css';

export type AnalyticsActor = ActorRefFrom<typeof syncAnalyticsMachine>;

/**
 * Sync analytics for one tenant: the period and "Forçar atualização", then what the server did
 * (days recomputed and kept, rows read, how long it took), or why it failed.
 */
export function AnalyticsSync({ actor }: { actor: AnalyticsActor }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const syncing = useSelector(actor, (s) => s.matches('syncing'));
  const { fromDate, toDate, forceUpdate, result, error, invalid } = useSelector(actor, (s) => s.context);

  const facts = result
    ? [
        { label: t('tenants.analytics.recomputed'), value: formatNumber(result.recomputedDays, locale) },
        { label: t('tenants.analytics.skipped'), value: formatNumber(result.skippedDays, locale) },
        { label: t('tenants.analytics.rows'), value: formatNumber(result.rows, locale) },
        {
          label: t('tenants.analytics.duration'),
          value:
            result.durationMs < 1000
              ? t('tenants.analytics.durationMs', { value: formatNumber(result.durationMs, locale) })
              : formatDuration(result.durationMs / 1000),
        },
        { label: t('tenants.analytics.forced'), value: result.forceUpdate ? t('common.yes') : t('common.no') },
      ]
    : [];

  return (
    <div className={styles.section}>
      <p className={styles.muted}>{t('tenants.analytics.intro')}</p>
      <div className={styles.fields}>
        <RangeField
          label={t('tenants.analytics.range')}
          startAt={fromDate}
          finishAt={toDate}
          onChange={(start, finish) => actor.send({ type: 'analytics.range', fromDate: start, toDate: finish })}
          errorMessage={invalid ? t(invalid) : null}
          isDisabled={syncing}
        />
        <Switch
          isSelected={forceUpdate}
          onChange={(value) => actor.send({ type: 'analytics.force', forceUpdate: value })}
          isDisabled={syncing}
        >
          {t('tenants.analytics.force')}
        </Switch>
      </div>
      <p className={styles.muted}>{t('tenants.analytics.forceHint')}</p>
      <div className={styles.actions}>
        <Button
          isPending={syncing}
          pendingLabel={t('tenants.analytics.syncing')}
          onPress={() => actor.send({ type: 'analytics.sync' })}
        >
          {t('tenants.analytics.submit')}
        </Button>
      </div>
      {error ? (
        <FormError>{t('tenants.screen.failure', { what: t(error.key), why: t(error.reason) })}</FormError>
      ) : null}
      <div role="status" className={styles.section}>
        {result && !error ? (
          <>
            <h4 className={styles.sectionTitle}>{t('tenants.analytics.resultTitle')}</h4>
            <p className={styles.muted}>
              {t('tenants.analytics.resultRange', {
                from: formatDate(result.fromDate, locale),
                to: formatDate(result.toDate, locale),
              })}
            </p>
            <dl className={styles.facts}>
              {facts.map((fact) => (
                <div key={fact.label} className={styles.fact}>
                  <dt className={styles.factLabel}>{fact.label}</dt>
                  <dd className={styles.factValue}>{fact.value}</dd>
                </div>
              ))}
            </dl>
          </>
        ) : null}
      </div>
    </div>
  );
}
