import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../../domain/format';
import {
  selectPreviewStatus,
  sheetPreviewMachine,
  type PreviewRequest,
  type PreviewSheetName,
} from '../../../../machines/reports/sheet-preview.machine';
import { Button } from '../../../components/button';
import { DataTable } from '../../../components/data-table';
import { EmptyState } from '../../../components/empty-state';
import { ErrorState } from '../../../components/error-state';
import { useServices } from '../../../hooks/services-context';
import { usePreviewColumns, type PreviewRow } from './sheet-columns';
import { SheetFiltersBar } from './sheet-filters';
import { sameRequest, sheetRequest, type SheetFilters } from '../../../components/reports/sheet-request';
import * as styles from './sheets.css';

/** Filters settle this long before the preview follows them (typing a date changes it per digit). */
export const PREVIEW_DEBOUNCE_MS = 400;

export interface SheetTabProps {
  sheet: PreviewSheetName;
  filters: SheetFilters;
  onFilters: (next: SheetFilters) => void;
  tenantName: string | undefined;
  /** Another download is running: this one waits. */
  downloadBusy: boolean;
  onDownload: (request: PreviewRequest, expectedRows: number | null) => void;
  /** The running or last download (one for the whole panel), shown under the buttons of the open tab. */
  downloadStatus: ReactNode;
}

/** One sheet: its filters, a preview of the first rows with the range's total, and the download. */
export function SheetTab({
  sheet,
  filters,
  onFilters,
  tenantName,
  downloadBusy,
  onDownload,
  downloadStatus,
}: SheetTabProps) {
  const { t, i18n } = useTranslation();
  const { clients } = useServices();
  const actor = useActorRef(sheetPreviewMachine, { input: { rest: clients.rest } });
  const status = useSelector(actor, selectPreviewStatus);
  const preview = useSelector(actor, (s) => s.context.preview);
  const previewed = useSelector(actor, (s) => s.context.request);
  const error = useSelector(actor, (s) => s.context.error);
  const invalid = useSelector(actor, (s) => s.context.invalid);
  const columns = usePreviewColumns(sheet);
  const request = sheetRequest(sheet, filters, tenantName);
  const requestKey = JSON.stringify(request);
  const name = t(`sheets.names.${sheet}`);

  useEffect(() => {
    const next = JSON.parse(requestKey) as PreviewRequest;
    const timer = setTimeout(() => actor.send({ type: 'sheets.preview', request: next }), PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [actor, requestKey]);

  const rows: PreviewRow[] = preview?.sheet === sheet ? preview.data : [];
  const total = preview && sameRequest(previewed, request) ? preview.total : null;
  const locale = i18n.language;
  return (
    <div className={styles.tab}>
      <SheetFiltersBar sheet={sheet} filters={filters} onChange={onFilters} rangeError={invalid ? t(invalid) : null} />
      <div className={styles.actions}>
        <Button
          variant="secondary"
          onPress={() => actor.send({ type: 'sheets.preview', request })}
          isPending={status === 'loading'}
        >
          {t('sheets.panel.preview')}
        </Button>
        <Button onPress={() => onDownload(request, total)} isDisabled={downloadBusy}>
          {t('sheets.panel.download')}
        </Button>
        {preview && status === 'ready' ? (
          <p className={styles.count}>
            {t('sheets.panel.previewCount', {
              count: preview.total,
              shown: formatNumber(rows.length, locale),
              total: formatNumber(preview.total, locale),
            })}
          </p>
        ) : null}
      </div>
      {downloadStatus}
      <DataTable
        aria-label={t('sheets.panel.previewLabel', { name })}
        columns={columns}
        rows={rows}
        status={status}
        emptyState={<EmptyState title={t('sheets.panel.empty')} description={t('sheets.panel.emptyHint')} />}
        errorState={
          <ErrorState
            title={error ? t(error.key) : undefined}
            description={error ? t(error.reason) : undefined}
            onRetry={() => actor.send({ type: 'sheets.preview', request })}
          />
        }
      />
    </div>
  );
}
