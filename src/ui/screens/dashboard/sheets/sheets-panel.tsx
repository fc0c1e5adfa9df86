import { useState } from 'react';
import type { Key } from 'react-aria-components/Tabs';
import { useTranslation } from 'react-i18next';
import type { PreviewSheetName } from '../../../../machines/reports/sheet-preview.machine';
import { Card } from '../../../components/card';
import { Tab, TabList, TabPanel, Tabs } from '../../../components/tabs';
import { DownloadStatus } from '../../../components/reports/download-status';
import { SheetTab } from './sheet-tab';
import { defaultFilters, SHEETS, type SheetFilters } from '../../../components/reports/sheet-request';
import * as styles from './sheets.css';
import { useReportTenant } from '../../../components/reports/use-report-tenant';
import { useSheetDownload } from '../../../components/reports/use-sheet-download';

export interface SheetsPanelProps {
  /**
   * The tenant the sheets cover (a dashboard's tenant filter). Default: the address's tenant for
   * back-office staff outside their own, else the caller's scope as the server decides it.
   */
  tenantName?: string;
  /** Heading level of the panel's title, to fit the page outline (default 2). */
  headingLevel?: 2 | 3;
}

const initialFilters = (): Record<PreviewSheetName, SheetFilters> => ({
  orders: defaultFilters(),
  attendances: defaultFilters(),
  instance_logs: defaultFilters(),
  reasons: defaultFilters(),
});

/**
 * The sheets (docs/product.md, Sheets and CSV): orders, attendances, instance logs and reasons, each with
 * its period and filters, a preview of its first rows with the period's total, and a CSV download
 * streamed to disk with progress in rows and bytes (cancel at any time). One download runs at a
 * time; filters are kept per sheet while the panel is shown. Used on the Data & Analytics dashboard
 * and standalone.
 */
export function SheetsPanel({ tenantName, headingLevel = 2 }: SheetsPanelProps) {
  const { t } = useTranslation();
  const addressTenant = useReportTenant();
  const scope = tenantName ?? addressTenant;
  const [selected, setSelected] = useState<Key>('orders');
  const [filters, setFilters] = useState(initialFilters);
  const download = useSheetDownload();
  const { busy, request: last } = download;
  const status = (
    <DownloadStatus
      actor={download.actor}
      expectedRows={download.expectedRows}
      fileName={download.fileName}
      toDisk={download.toDisk}
      onCancel={download.cancel}
      onRetry={() => last && void download.start(last, download.expectedRows)}
    />
  );
  return (
    <Card title={t('sheets.panel.title')} headingLevel={headingLevel}>
      <div className={styles.panel}>
        <p className={styles.intro}>{t('sheets.panel.intro')}</p>
        {download.toDisk ? null : <p className={styles.note}>{t('sheets.panel.progress.fallback')}</p>}
        <Tabs selectedKey={selected} onSelectionChange={setSelected}>
          <TabList aria-label={t('sheets.panel.tabsLabel')}>
            {SHEETS.map((sheet) => (
              <Tab key={sheet} id={sheet}>
                {t(`sheets.names.${sheet}`)}
              </Tab>
            ))}
          </TabList>
          {SHEETS.map((sheet) => (
            <TabPanel key={sheet} id={sheet}>
              <SheetTab
                sheet={sheet}
                filters={filters[sheet]}
                onFilters={(next) => setFilters((all) => ({ ...all, [sheet]: next }))}
                tenantName={scope}
                downloadBusy={busy}
                onDownload={(request, rows) => void download.start(request, rows)}
                downloadStatus={status}
              />
            </TabPanel>
          ))}
        </Tabs>
      </div>
    </Card>
  );
}

export default SheetsPanel;
