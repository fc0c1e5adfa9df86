import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../domain/format';
import type { LoginFailureReportContext } from '../../../machines/reports/login-failure-report.machine';
import type { SheetRequest } from '../../../machines/reports/sheet-stream';
import { Button } from '../../components/button';
import { DownloadStatus } from '../../components/reports/download-status';
import { useSheetDownload } from '../../components/reports/use-sheet-download';
import * as styles from './report-cut.css';

export interface ReportCutProps {
  cut: NonNullable<LoginFailureReportContext['cut']>;
  /** Rows the report shows (its limit). */
  shown: number;
}

/**
 * Says that the report stopped at its row limit — against the period's total when the login-failure
 * sheet gave it, else "at least" — and downloads every row of the same request as CSV, streamed
 * (`GET /api/tenant/sheets/login_failures`, docs/product.md, Sheets and CSV).
 */
export function ReportCut({ cut, shown }: ReportCutProps) {
  const { t, i18n } = useTranslation();
  const download = useSheetDownload();
  const locale = i18n.language;
  const request: SheetRequest = {
    sheet: 'login_failures',
    query: { ...cut.range, ...(cut.selectedUsers.length ? { userId: cut.selectedUsers } : {}) },
  };
  const start = () => void download.start(request, cut.total);
  return (
    <div className={styles.cut}>
      <p className={styles.text} role="status">
        {cut.total !== null
          ? t('reports.screen.loginFailures.cutTotal', {
              shown: formatNumber(shown, locale),
              total: formatNumber(cut.total, locale),
            })
          : t('reports.screen.loginFailures.cutAtLeast', { shown: formatNumber(shown, locale) })}
      </p>
      <Button variant="secondary" onPress={start} isDisabled={download.busy}>
        {t('reports.screen.loginFailures.downloadAll')}
      </Button>
      <div className={styles.status}>
        <DownloadStatus
          actor={download.actor}
          expectedRows={download.expectedRows}
          fileName={download.fileName}
          toDisk={download.toDisk}
          onCancel={download.cancel}
          onRetry={start}
        />
      </div>
    </div>
  );
}
