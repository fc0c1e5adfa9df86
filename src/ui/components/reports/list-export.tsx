import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../domain/format';
import type { I18nKey } from '../../../domain/i18n-key';
import {
  listExportFileName,
  listExportMachine,
  selectListExportOutcome,
  type ListExportActor,
  type ListExportRequest,
} from '../../../machines/shared/list-export.machine';
import type { OpenSink } from '../../../machines/reports/sheet-stream';
import { Button } from '../button';
import { ProgressBar } from '../progress-bar';
import { appToasts, showToast } from '../toast-queue';
import { useServices } from '../../hooks/services-context';
import * as downloadStyles from './download-status.css';
import { formatSize } from './format-size';
import { blobSink, canPickFile, pickFile } from './save-file';

/**
 * The words of an export, and whether its bar stays once it ended: the lists' status goes away when the
 * download is done (the toast says it); the audit log's keeps its bar, its outcome and the file name.
 */
export interface ListExportTexts {
  button: I18nKey;
  progress: I18nKey;
  done: I18nKey;
  value: I18nKey;
  cancelled: I18nKey;
  failed: I18nKey;
  keepOutcome: boolean;
}

export const LIST_EXPORT_TEXTS: ListExportTexts = {
  button: 'lists.export.button',
  progress: 'lists.export.progress',
  done: 'lists.export.done',
  value: 'lists.export.value',
  cancelled: 'lists.export.cancelled',
  failed: 'lists.export.failed',
  keepOutcome: false,
};

export const AUDIT_EXPORT_TEXTS: ListExportTexts = {
  button: 'audit.export.button',
  progress: 'audit.export.progress',
  done: 'audit.export.done',
  value: 'audit.export.value',
  cancelled: 'audit.export.cancelled',
  failed: 'audit.errors.export',
  keepOutcome: true,
};

/** The export's actor, started by the screen so the button and the progress share it. */
export function useListExport(): ListExportActor {
  const { clients } = useServices();
  return useActorRef(listExportMachine, { input: { rest: clients.rest } });
}

/**
 * "Exportar CSV" of a list (docs/lists.md, Filters and export): the list under its filters and sort,
 * streamed into the file the user picks where the browser can write to disk, else into a Blob saved
 * under the server's file name (./save-file.ts, as the sheets and the audit log do).
 */
export function ListExportButton({
  actor,
  request,
  texts = LIST_EXPORT_TEXTS,
}: {
  actor: ListExportActor;
  request: () => ListExportRequest;
  texts?: ListExportTexts;
}) {
  const { t } = useTranslation();
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const start = async () => {
    if (actor.getSnapshot().hasTag('busy')) return;
    const asked = request();
    let openSink: OpenSink = (file) => blobSink(file);
    if (canPickFile()) {
      try {
        const picked = await pickFile(listExportFileName(asked), t(texts.progress));
        if (!picked) return;
        let used = false;
        openSink = () => {
          used = true;
          return picked.sink;
        };
        // A picked file the stream never opened (refused, failed early) is discarded.
        const subscription = actor.subscribe((s) => {
          if (s.hasTag('busy')) return;
          subscription.unsubscribe();
          if (!used) void Promise.resolve(picked.sink.abort('unused')).catch(() => undefined);
        });
      } catch {
        showToast(appToasts, {
          variant: 'error',
          title: t(texts.failed),
          description: t('apiErrors.unknown'),
        });
        return;
      }
    }
    actor.send({ type: 'export.start', request: asked, openSink });
  };
  return (
    <Button variant="secondary" onPress={() => void start()} isPending={busy}>
      {t(texts.button)}
    </Button>
  );
}

/** The running or last export: rows and bytes so far, cancel while it runs; the outcome is toasted. */
export function ListExportStatus({
  actor,
  texts = LIST_EXPORT_TEXTS,
}: {
  actor: ListExportActor;
  texts?: ListExportTexts;
}) {
  const { t, i18n } = useTranslation();
  const snapshot = useSelector(actor, (s) => s);
  const locale = i18n.language;

  useEffect(() => {
    let previous = actor.getSnapshot();
    const subscription = actor.subscribe((next) => {
      const wasBusy = previous.hasTag('busy');
      previous = next;
      if (!wasBusy || next.hasTag('busy')) return;
      const outcome = selectListExportOutcome(next);
      if (outcome === 'done') {
        const rows = formatNumber(next.context.progress.rows, locale);
        showToast(appToasts, { variant: 'success', title: t(texts.done, { rows, count: next.context.progress.rows }) });
      } else if (outcome === 'cancelled') {
        showToast(appToasts, { variant: 'info', title: t(texts.cancelled) });
      } else if (next.context.error) {
        showToast(appToasts, {
          variant: 'error',
          title: t(next.context.error.key),
          description: t(next.context.error.reason),
        });
      }
    });
    return () => subscription.unsubscribe();
  }, [actor, t, locale, texts]);

  if (snapshot.matches('idle')) return null;
  const outcome = selectListExportOutcome(snapshot);
  if (outcome === 'done' && !texts.keepOutcome) return null;
  const running = snapshot.hasTag('busy');
  const { progress, error } = snapshot.context;
  const valueLabel = t(texts.value, {
    count: progress.rows,
    rows: formatNumber(progress.rows, locale),
    size: formatSize(progress.bytes, locale),
  });
  return (
    <div className={downloadStyles.download}>
      {running || texts.keepOutcome ? (
        <ProgressBar
          label={t(texts.progress)}
          value={running ? undefined : 1}
          maxValue={1}
          isIndeterminate={running}
          valueLabel={valueLabel}
          tone={outcome === 'done' ? 'success' : outcome === 'failed' ? 'danger' : 'primary'}
        />
      ) : null}
      {running && texts.keepOutcome ? <p className={downloadStyles.count}>{valueLabel}</p> : null}
      {outcome === 'done' && snapshot.context.file ? (
        <p className={downloadStyles.count}>
          {t('sheets.panel.progress.savedAs', { file: snapshot.context.file.name })}
        </p>
      ) : null}
      {outcome === 'cancelled' ? <p className={downloadStyles.count}>{t(texts.cancelled)}</p> : null}
      {error ? (
        <p className={downloadStyles.error} role="alert">
          {t(error.key)} {t(error.reason)}
        </p>
      ) : null}
      {running ? (
        <div className={downloadStyles.actions}>
          <Button variant="secondary" onPress={() => actor.send({ type: 'export.cancel' })}>
            {t('sheets.panel.progress.cancel')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
