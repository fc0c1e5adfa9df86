import type { PreviewRequest, PreviewSheetName } from '../../../machines/reports/sheet-preview.machine';

/** The sheets in the order of the tabs. */
export const SHEETS: readonly PreviewSheetName[] = ['orders', 'attendances', 'instance_logs', 'reasons'];

/** Every filter a sheet may use; each sheet reads its own (contracts/openapi.yaml tag `sheets`). */
export interface SheetFilters {
  startAt: string;
  finishAt: string;
  /** Attendances: only this website; null for every one. */
  websiteId: number | null;
  /** Attendances: with an estimate, without, or both. */
  estimation: 'all' | 'yes' | 'no';
  /** Reasons: only this tenant (by id); null for every tenant the caller sees. */
  tenancyId: number | null;
  /** Reasons: only this reason; null for every reason. */
  reasonId: number | null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of the day `days` before today in the browser's zone (0: today). */
export function isoDaysAgo(days: number, now: Date = new Date()): string {
  // Local noon: a day's arithmetic never lands on a DST boundary.
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() - days, 12);
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/** The last 30 days, today included. */
export function defaultRange(): { startAt: string; finishAt: string } {
  return { startAt: isoDaysAgo(29), finishAt: isoDaysAgo(0) };
}

export function defaultFilters(): SheetFilters {
  return { ...defaultRange(), websiteId: null, estimation: 'all', tenancyId: null, reasonId: null };
}

/** The API request of a sheet for these filters; `tenantName` scopes the sheets that take one. */
export function sheetRequest(sheet: PreviewSheetName, filters: SheetFilters, tenantName?: string): PreviewRequest {
  const range = { startAt: filters.startAt, finishAt: filters.finishAt };
  const tenant = tenantName ? { tenantName } : {};
  switch (sheet) {
    case 'orders':
      return { sheet, query: { ...range, ...tenant } };
    case 'attendances':
      return {
        sheet,
        query: {
          ...range,
          ...tenant,
          ...(filters.websiteId === null ? {} : { websiteId: filters.websiteId }),
          ...(filters.estimation === 'all' ? {} : { estimation: filters.estimation === 'yes' }),
        },
      };
    case 'instance_logs':
      return { sheet, query: { ...range, ...tenant } };
    case 'reasons':
      return {
        sheet,
        query: {
          ...range,
          ...(filters.tenancyId === null ? {} : { tenancyId: filters.tenancyId }),
          ...(filters.reasonId === null ? {} : { reasonId: filters.reasonId }),
        },
      };
  }
}

/** Whether two requests ask for the same rows (a preview's total then sizes the download). */
export function sameRequest(a: PreviewRequest | null, b: PreviewRequest): boolean {
  return a !== null && a.sheet === b.sheet && JSON.stringify(a.query) === JSON.stringify(b.query);
}
