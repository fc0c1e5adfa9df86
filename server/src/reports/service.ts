import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Actor } from '../access/caller';
import { guardService } from '../access/guard';
import type { AuditTrail } from '../audit/trail';
import type { WebhookProgress } from '../webhooks/progress';
import { createAnalytics, loginFailureScope } from './analytics';
import { dayRange, reportScope, reportScopeById } from './params';
import { csvLines, sheetFileName, sheetPreview, type Sheet, type SheetRow } from './sheet';
import { attendancesSheet, instanceLogsSheet, loginFailuresSheet, ordersSheet, reasonsSheet } from './sheets';

/** Default JSON preview size (the contract's `SheetLimit` default). */
const DEFAULT_LIMIT = 100;

interface SheetQuery {
  startAt: string;
  finishAt: string;
  limit?: number;
}

/** A sheet ready to answer: its JSON preview, or every row as CSV (server/src/base/csv.ts) with its file name. */
export interface SheetAnswer<Json> {
  preview(): Promise<{ data: Json[]; total: number; limit: number }>;
  fileName: string;
  csv(): AsyncGenerator<string>;
}

function answer<Row extends SheetRow, Json>(
  sheet: Sheet<Row, Json>,
  q: SheetQuery,
  range: ReturnType<typeof dayRange>,
): SheetAnswer<Json> {
  return {
    preview: () => sheetPreview(sheet, q.limit ?? DEFAULT_LIMIT),
    fileName: sheetFileName(sheet, range),
    csv: () => csvLines(sheet),
  };
}

/**
 * Reports: the sheets (orders, attendances, instance logs, reasons, login failures: a bounded JSON preview or
 * every row streamed as CSV in constant memory), dashboards and analytics (./analytics.ts).
 */
export function createReportsService({
  db,
  audit,
  webhookProgress,
}: {
  db: Kysely<Database>;
  audit: AuditTrail;
  webhookProgress?: WebhookProgress;
}) {
  return guardService('reports', {
    ...createAnalytics({ db, audit, webhookProgress }),

    async orders(actor: Actor, q: SheetQuery & { tenantName?: string }) {
      const range = dayRange(q.startAt, q.finishAt, 'finishAt');
      return answer(ordersSheet(db, await reportScope(db, actor, q.tenantName), range), q, range);
    },

    async attendances(actor: Actor, q: SheetQuery & { tenantName?: string; websiteId?: number; estimation?: boolean }) {
      const range = dayRange(q.startAt, q.finishAt, 'finishAt');
      const sheet = attendancesSheet(db, await reportScope(db, actor, q.tenantName), range, {
        websiteId: q.websiteId,
        estimation: q.estimation,
      });
      return answer(sheet, q, range);
    },

    async instanceLogs(actor: Actor, q: SheetQuery & { tenantName?: string }) {
      const range = dayRange(q.startAt, q.finishAt, 'finishAt');
      return answer(instanceLogsSheet(db, await reportScope(db, actor, q.tenantName), range), q, range);
    },

    /** The reasons sheet names its tenant by id (`tenancyId`). */
    async reasons(actor: Actor, q: SheetQuery & { tenancyId?: number; reasonId?: number }) {
      const range = dayRange(q.startAt, q.finishAt, 'finishAt');
      return answer(reasonsSheet(db, reportScopeById(actor, q.tenancyId), range, q.reasonId), q, range);
    },

    /** The login-failure report's rows without its 10,000-row cut, in the report's scope (./analytics.ts). */
    async loginFailureSheet(actor: Actor, q: SheetQuery & { userId?: readonly number[] }) {
      const range = dayRange(q.startAt, q.finishAt, 'finishAt');
      return answer(loginFailuresSheet(db, loginFailureScope(actor), range, q.userId), q, range);
    },
  });
}

export type ReportsService = ReturnType<typeof createReportsService>;
