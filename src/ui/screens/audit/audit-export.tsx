import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../domain/format';
import { auditExportMachine, auditFileName, selectExportOutcome } from '../../../machines/audit/audit-export.machine';
import type { AuditQuery } from '../../../machines/audit/audit-query';
import type { OpenSink } from '../../../machines/reports/sheet-stream';
import { Button } from '../../components/button';
import { ProgressBar } from '../../components/progress-bar';
import * as downloadStyles from '../../components/reports/download-status.css';
import { formatSize } from '../../components/reports/format-size';
import { blobSink, canPickFile, pickFile } from '../../components/reports/save-file';
import { appToasts, showToast } from '../../components/toast-queue';
import { useServices } from '../../hooks/services-context';

/** The export's actor, started by the screen so the button and the progress share it. */
export function useAuditExport() {
  const { clients } = useServices();
  return useActorRef(auditExportMachine, { input: { rest: clients.rest } });
}

type ExportActor = ReturnType<typeof useAuditExport>;

/**
 * "Exportar CSV": every record under the applied filters, streamed (`Accept: text/csv`) into the file
 * the user picks where the browser can write to disk, else into a Blob saved as
 * `auditoria-AAAA-MM-DD.csv` (src/ui/components/reports/save-file.ts, as the sheets do).
 */
export function AuditExportButton({ actor, query }: { actor: ExportActor; query: AuditQuery }) {
  const { t } = useTranslation();
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const start = async () => {
    if (actor.getSnapshot().hasTag('busy')) return;
    let openSink: OpenSink = (file) => blobSink(file);
    if (canPickFile()) {
      try {
        const picked = await pickFile(auditFileName(), t('audit.export.progress'));
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
          title: t('audit.errors.export'),
          description: t('apiErrors.unknown'),
        });
        return;
      }
    }
    actor.send({ type: 'export.start', query, openSink });
  };
  return (
    <Button variant="secondary" onPress={() => void start()} isPending={busy}>
      {t('audit.export.button')}
    </Button>
  );
}

/** The running or last export: rows and bytes so far, cancel while it runs; the outcome is toasted. */
export function AuditExportStatus({ actor }: { actor: ExportActor }) {
  const { t, i18n } = useTranslation();
  const snapshot = useSelector(actor, (s) => s);
  const locale = i18n.language;

  useEffect(() => {
    let previous = actor.getSnapshot();
    const subscription = actor.subscribe((next) => {
      const wasBusy = previous.hasTag('busy');
      previous = next;
      if (!wasBusy || next.hasTag('busy')) return;
      const outcome = selectExportOutcome(next);
      if (outcome === 'done') {
        const rows = formatNumber(next.context.progress.rows, locale);
        showToast(appToasts, { variant: 'success', title: t('audit.export.done', { rows }) });
      } else if (outcome === 'cancelled') {
        showToast(appToasts, { variant: 'info', title: t('audit.export.cancelled') });
      } else if (next.context.error) {
        showToast(appToasts, {
          variant: 'error',
          title: t(next.context.error.key),
          description: t(next.context.error.reason),
        });
      }
    });
    return () => subscription.unsubscribe();
  }, [actor, t, locale]);

  if (snapshot.matches('idle')) return null;
  const running = snapshot.hasTag('busy');
  const outcome = selectExportOutcome(snapshot);
  const { progress, error } = snapshot.context;
  const valueLabel = t('audit.export.value', {
    rows: formatNumber(progress.rows, locale),
    size: formatSize(progress.bytes, locale),
  });
  return (
    <div className={downloadStyles.download}>
      <ProgressBar
        label={t('audit.export.progress')}
        value={running ? undefined : 1}
        maxValue={1}
        isIndeterminate={running}
        valueLabel={valueLabel}
        tone={outcome === 'done' ? 'success' : outcome === 'failed' ? 'danger' : 'primary'}
      />
      {running ? <p className={downloadStyles.count}>{valueLabel}</p> : null}
      {outcome === 'done' && snapshot.context.file ? (
        <p className={downloadStyles.count}>
          {t('sheets.panel.progress.savedAs', { file: snapshot.context.file.name })}
        </p>
      ) : null}
      {outcome === 'cancelled' ? <p className={downloadStyles.count}>{t('audit.export.cancelled')}</p> : null}
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
