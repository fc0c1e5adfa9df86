import { useTranslation } from 'react-i18next';
import type { BulkItemResult, BulkOutcome, BulkProgress } from '../../../machines/shared/bulk-run';
import type { I18nKey } from '../../../domain/i18n-key';
import { AlertIcon, SuccessIcon } from '../../components/icons';
import { ProgressBar } from '../../components/progress-bar';
import { Spinner } from '../../components/spinner';
import * as styles from './tenants.css';

/** The texts a bulk run's views differ in: features say "Salva", webhook types "Entregas geradas: 12". */
export interface BulkTexts {
  running: I18nKey;
  /** The bar's label once the run has ended. */
  finished: I18nKey;
  progress: I18nKey;
  waiting: I18nKey;
  failed: I18nKey;
  outcome: Record<BulkOutcome, I18nKey>;
}

/**
 * One item's result in a run: waiting (while the run goes on), done with `okText`, or failed with
 * the reason. An icon and the words say it, never colour alone.
 */
export function ItemResult<V>({
  result,
  running,
  okText,
  texts,
}: {
  result: BulkItemResult<V> | null;
  running: boolean;
  okText: (value: V) => string;
  texts: BulkTexts;
}) {
  const { t } = useTranslation();
  if (result === null) {
    if (!running) return null;
    return (
      <span className={styles.resultStatus}>
        <Spinner size="sm" />
        {t(texts.waiting)}
      </span>
    );
  }
  if (result.status === 'ok') {
    return (
      <span className={styles.resultStatus}>
        <SuccessIcon size={16} className={styles.ok} />
        {okText(result.value)}
      </span>
    );
  }
  return (
    <span className={styles.resultStatus}>
      <AlertIcon size={16} className={styles.failed} />
      {t(texts.failed, { reason: t(result.reason) })}
    </span>
  );
}

/**
 * "n of m" while a run goes on (a progress bar), then how it ended, announced politely. The bar
 * turns to success or danger at the end; the sentence under it says so in words.
 */
export function RunProgress({
  progress,
  outcome,
  texts,
}: {
  progress: BulkProgress;
  outcome: BulkOutcome | null;
  texts: BulkTexts;
}) {
  const { t } = useTranslation();
  if (progress.total === 0) return null;
  const tone = outcome === null ? 'primary' : progress.failed === 0 && outcome === 'success' ? 'success' : 'danger';
  return (
    <div className={styles.section}>
      <ProgressBar
        label={t(outcome === null ? texts.running : texts.finished)}
        value={progress.done}
        maxValue={progress.total}
        valueLabel={t(texts.progress, { count: progress.total, done: progress.done, total: progress.total })}
        tone={tone}
      />
      <p className={styles.muted} role="status">
        {outcome === null
          ? null
          : t(texts.outcome[outcome], { count: progress.failed, failed: progress.failed, total: progress.total })}
      </p>
    </div>
  );
}
