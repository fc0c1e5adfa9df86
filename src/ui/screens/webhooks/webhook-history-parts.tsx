import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime, formatNumber } from '../../../domain/format';
import type {
  WebhookAttemptError,
  WebhookDelivery,
  WebhookDeliveryDetail,
} from '../../../machines/webhooks/webhook-history.machine';
import type { WebhookRun } from '../../../machines/webhooks/webhook-runs-live';
import { Badge, type Tone } from '../../components/badge';
import * as styles from './webhooks.css';

type AttemptError = WebhookAttemptError;

export const STATE_TONES: Readonly<Record<WebhookDelivery['state'], Tone>> = {
  pending: 'info',
  sending: 'info',
  succeeded: 'success',
  failed: 'danger',
  cancelled: 'neutral',
};

export function StateBadge({ state }: { state: WebhookDelivery['state'] }) {
  const { t } = useTranslation();
  return <Badge tone={STATE_TONES[state]}>{t(`webhooks.states.${state}`)}</Badge>;
}

/** An attempt's outcome in words: its status code, or why there was none (contracts/openapi.yaml `WebhookAttemptError`). */
export function outcomeText(t: TFunction, statusCode: number | null, error: AttemptError | null): string {
  if (statusCode !== null && error !== 'address_refused' && error !== 'timeout' && error !== 'connection')
    return error && error !== 'http_status'
      ? `${t('webhooks.history.statusCode', { code: statusCode })} · ${t(`webhooks.attemptErrors.${error}`)}`
      : t('webhooks.history.statusCode', { code: statusCode });
  if (error) return t(`webhooks.attemptErrors.${error}`);
  return t('webhooks.history.noAnswer');
}

/** The run's counters in one line. */
export function RunCounters({ run }: { run: WebhookRun }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <p className={styles.counters}>
      <span>{t('webhooks.run.total', { count: run.total, n: n(run.total) })}</span>
      <span>{t('webhooks.run.succeeded', { n: n(run.succeeded) })}</span>
      <span>{t('webhooks.run.failed', { n: n(run.failed) })}</span>
      <span>{t('webhooks.run.pending', { n: n(run.pending) })}</span>
      {run.cancelled > 0 ? <span>{t('webhooks.run.cancelled', { n: n(run.cancelled) })}</span> : null}
    </p>
  );
}

/** "Enviada · 01/11/2026 a 07/11/2026" */
export function runTitle(t: TFunction, locale: string, run: WebhookRun): string {
  return t('webhooks.run.title', {
    id: run.id,
    type: t(`webhooks.types.${run.type}`),
    start: formatDate(run.startAt, locale),
    finish: formatDate(run.finishAt, locale),
  });
}

/** The JSON body pretty-printed (as sent when it is not JSON). */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** A delivery's body and every attempt: when, how long, the answer or the error, the answer's first bytes. */
export function DeliveryDetail({ detail }: { detail: WebhookDeliveryDetail }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const { delivery } = detail;
  return (
    <>
      <p className={styles.muted}>{t('webhooks.history.detail.key', { key: delivery.idempotency_key })}</p>
      <h3 className={styles.heading}>{t('webhooks.history.detail.body')}</h3>
      <pre className={styles.pre} tabIndex={0}>
        {pretty(detail.body)}
      </pre>
      <h3 className={styles.heading}>{t('webhooks.history.detail.attempts', { count: detail.attempts.length })}</h3>
      {detail.attempts.length === 0 ? (
        <p className={styles.muted}>{t('webhooks.history.detail.noAttempts')}</p>
      ) : (
        <ol className={styles.attempts}>
          {detail.attempts.map((attempt) => (
            <li key={attempt.number} className={styles.run}>
              <p className={styles.counters}>
                <strong>{t('webhooks.history.detail.attempt', { n: attempt.number })}</strong>
                <time dateTime={attempt.started_at}>{formatDateTime(attempt.started_at, locale)}</time>
                <span>{t('webhooks.history.detail.duration', { ms: formatNumber(attempt.duration_ms, locale) })}</span>
                <span>{outcomeText(t, attempt.status_code, attempt.error)}</span>
                {attempt.retry_at ? (
                  <span>{t('webhooks.history.detail.retryAt', { at: formatDateTime(attempt.retry_at, locale) })}</span>
                ) : null}
              </p>
              {attempt.response_excerpt !== '' ? (
                <pre
                  className={styles.pre}
                  tabIndex={0}
                  aria-label={t('webhooks.history.detail.answer', { n: attempt.number })}
                >
                  {attempt.response_excerpt}
                </pre>
              ) : (
                <p className={styles.muted}>{t('webhooks.history.detail.emptyAnswer')}</p>
              )}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
