import { useCallback, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../domain/format';
import { selectDownloadOutcome } from '../../../machines/reports/sheet-download.machine';
import { Button } from '../button';
import { ProgressBar } from '../progress-bar';
import { formatSize } from './format-size';
import * as styles from './download-status.css';
import type { SheetDownloadActor, SheetDownloadView } from './use-sheet-download';

/** Repaints at most this often while chunks stream in (dozens arrive per second on a fast link). */
export const PROGRESS_REPAINT_MS = 100;

/** The actor's snapshot, re-read at most every `ms` (trailing, so the last state always shows). */
function useThrottledSnapshot(actor: SheetDownloadActor, ms: number) {
  const subscribe = useCallback(
    (notify: () => void) => {
      let timer: ReturnType<typeof setTimeout> | null = null;
      const subscription = actor.subscribe(() => {
        timer ??= setTimeout(() => {
          timer = null;
          notify();
        }, ms);
      });
      return () => {
        subscription.unsubscribe();
        if (timer !== null) clearTimeout(timer);
      };
    },
    [actor, ms],
  );
  return useSyncExternalStore(subscribe, () => actor.getSnapshot());
}

export interface DownloadStatusProps extends SheetDownloadView {
  onCancel: () => void;
  onRetry: () => void;
}

/**
 * The running or last download: a progress bar in rows (against the preview's total when known)
 * with the bytes so far, cancel while it runs, and the outcome after (the toast says it too).
 */
export function DownloadStatus({ actor, expectedRows, fileName, onCancel, onRetry }: DownloadStatusProps) {
  const { t, i18n } = useTranslation();
  const snapshot = useThrottledSnapshot(actor, PROGRESS_REPAINT_MS);
  const { request, progress, error } = snapshot.context;
  if (!request || snapshot.matches('idle')) return null;
  const locale = i18n.language;
  const name = t(`sheets.names.${request.sheet}`);
  const running = snapshot.hasTag('busy');
  const outcome = selectDownloadOutcome(snapshot);
  const done = outcome === 'done';
  // The preview's total sizes the bar; rows added since then turn it back into a plain count.
  const known = expectedRows !== null && expectedRows > 0 && progress.rows <= expectedRows;
  const values = {
    // The plural form follows the noun's number: the total when known ("1 de 2 linhas"), else the rows so far.
    count: known ? (expectedRows ?? 0) : progress.rows,
    rows: formatNumber(progress.rows, locale),
    total: formatNumber(expectedRows ?? 0, locale),
    size: formatSize(progress.bytes, locale),
  };
  const valueLabel = known ? t('sheets.panel.progress.value', values) : t('sheets.panel.progress.valueUnknown', values);
  const waiting = running && progress.bytes === 0;
  return (
    <div className={styles.download}>
      <ProgressBar
        label={t('sheets.panel.progress.label', { name })}
        value={done ? (known ? expectedRows : 1) : known ? progress.rows : 0}
        maxValue={known ? expectedRows : 1}
        isIndeterminate={running && !known}
        valueLabel={waiting ? t('sheets.panel.progress.waiting') : valueLabel}
        tone={done ? 'success' : outcome === 'failed' ? 'danger' : 'primary'}
      />
      {/* The indeterminate bar hides its value: the counts stay visible beside it. */}
      {running && !known ? (
        <p className={styles.count}>{waiting ? t('sheets.panel.progress.waiting') : valueLabel}</p>
      ) : null}
      {done && fileName ? (
        <p className={styles.count}>{t('sheets.panel.progress.savedAs', { file: fileName })}</p>
      ) : null}
      {outcome === 'cancelled' ? <p className={styles.count}>{t('sheets.cancelled')}</p> : null}
      {error ? (
        <p className={styles.error} role="alert">
          {t(error.key)} {t(error.reason)}
        </p>
      ) : null}
      <div className={styles.actions}>
        {running ? (
          <Button variant="secondary" onPress={onCancel}>
            {t('sheets.panel.progress.cancel')}
          </Button>
        ) : done ? null : (
          <Button variant="ghost" onPress={onRetry}>
            {t('sheets.panel.progress.again')}
          </Button>
        )}
      </div>
    </div>
  );
}
