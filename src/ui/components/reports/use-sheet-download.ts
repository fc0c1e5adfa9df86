import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../domain/format';
import { isValidRange } from '../../../domain/date-range';
import { selectDownloadOutcome, sheetDownloadMachine } from '../../../machines/reports/sheet-download.machine';
import { sheetFileName, type SheetRequest, type SheetSink } from '../../../machines/reports/sheet-stream';
import { appToasts, showToast } from '../toast-queue';
import { useServices } from '../../hooks/services-context';
import { blobSink, canPickFile, pickFile, type PickerWindow } from './save-file';

/** The download actor (its progress is read where it is shown, so a chunk re-renders only that). */
export type SheetDownloadActor = ReturnType<typeof useActorRef<typeof sheetDownloadMachine>>;

/** What the download region shows. */
export interface SheetDownloadView {
  actor: SheetDownloadActor;
  /** Rows the range holds, when a preview of the same request said so (the bar's maximum). */
  expectedRows: number | null;
  /** Where the file went: the picked file's name, or the name the Blob was saved under. */
  fileName: string | null;
  /** Streaming straight to disk (File System Access API), or gathering a Blob. */
  toDisk: boolean;
}

export interface SheetDownloadControls extends SheetDownloadView {
  busy: boolean;
  /** The running or last request (for "download again"). */
  request: SheetRequest | null;
  /** Starts a download (asks where to save first when the browser can stream to a file). */
  start(request: SheetRequest, expectedRows: number | null): Promise<void>;
  cancel(): void;
}

/**
 * One sheet download at a time, over the sheet-download machine: picks the sink (a file the user
 * chose, or a Blob), tells the outcome in a toast (done, cancelled, failed) and discards a picked
 * file the download never reached.
 */
export function useSheetDownload(win: PickerWindow & Window = window): SheetDownloadControls {
  const { t, i18n } = useTranslation();
  const { clients } = useServices();
  const picked = useRef<SheetSink | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [expectedRows, setExpectedRows] = useState<number | null>(null);
  const toDisk = canPickFile(win);
  const actor = useActorRef(sheetDownloadMachine, {
    input: {
      rest: clients.rest,
      openSink: (file) => {
        const sink = picked.current;
        picked.current = null;
        if (sink) return sink;
        setFileName(file.name);
        return blobSink(file);
      },
    },
  });
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const request = useSelector(actor, (s) => s.context.request);

  useEffect(() => {
    let previous = actor.getSnapshot();
    const subscription = actor.subscribe((next) => {
      const wasBusy = previous.hasTag('busy');
      previous = next;
      if (!wasBusy || next.hasTag('busy')) return;
      // A picked file the stream never opened (refused, failed early): discard it.
      void Promise.resolve(picked.current?.abort('unused')).catch(() => undefined);
      picked.current = null;
      const rows = formatNumber(next.context.progress.rows, i18n.language);
      const outcome = selectDownloadOutcome(next);
      if (outcome === 'done')
        showToast(appToasts, {
          variant: 'success',
          title: t('sheets.panel.progress.done', { rows, count: next.context.progress.rows }),
        });
      else if (outcome === 'cancelled') showToast(appToasts, { variant: 'info', title: t('sheets.cancelled') });
      else if (next.context.error && next.context.error.reason !== 'apiErrors.cancelled') {
        showToast(appToasts, {
          variant: 'error',
          title: t(next.context.error.key),
          description: t(next.context.error.reason),
        });
      }
    });
    return () => subscription.unsubscribe();
  }, [actor, t, i18n]);

  const start = async (request: SheetRequest, rows: number | null) => {
    if (actor.getSnapshot().hasTag('busy')) return;
    setExpectedRows(rows);
    setFileName(null);
    if (toDisk && isValidRange(request.query)) {
      let file: Awaited<ReturnType<typeof pickFile>>;
      try {
        file = await pickFile(sheetFileName(request, null), t(`sheets.names.${request.sheet}`), win);
      } catch {
        showToast(appToasts, {
          variant: 'error',
          title: t('sheets.errors.download'),
          description: t('apiErrors.unknown'),
        });
        return;
      }
      if (!file) return;
      picked.current = file.sink;
      setFileName(file.name);
    }
    actor.send({ type: 'sheets.download', request });
  };

  return {
    actor,
    busy,
    request,
    expectedRows,
    fileName,
    toDisk,
    start,
    cancel: () => actor.send({ type: 'sheets.cancel' }),
  };
}
