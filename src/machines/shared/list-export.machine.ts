import {
  assertEvent,
  assign,
  fromCallback,
  setup,
  type ActorRefFrom,
  type EventObject,
  type SnapshotFrom,
} from 'xstate';
import type { RestClient } from '../../api/rest-client';
import { actionError, type ActionError } from './request-error';
import { pipeCsvAnswer, type OpenSink, type SheetFile, type SheetProgress } from '../reports/sheet-stream';
import { userListApiQuery, type UsersQuery } from '../users/users-query';
import { toExportQuery, type TenantsQuery } from '../../domain/tenants-query';
import { auditApiQuery, dayBefore, type AuditQuery } from '../audit/audit-query';
import type { I18nKey } from '../../domain/i18n-key';

/**
 * A list's "Exportar CSV" (docs/lists.md, Filters and export): the list under its filters and sort,
 * streamed by the server (`userExport`, `tenantExport`) into a sink as the sheets download
 * (src/machines/reports/sheet-stream.ts `pipeCsvAnswer`), with progress and cancel. The audit log's
 * export is one more list: every record under the applied filters (`GET /api/audit` with
 * `Accept: text/csv`, the sheets' format: docs/product.md, Sheets and CSV).
 */
export type ListExportRequest =
  | { list: 'users'; query: UsersQuery; tenantName: string | null }
  | { list: 'tenants'; query: TenantsQuery }
  | { list: 'audit'; query: AuditQuery };

/** `auditoria-AAAA-MM-DD.csv`, dated the day of the download. */
export function auditFileName(now: Date = new Date()): string {
  return `auditoria-${dayBefore(0, now)}.csv`;
}

/**
 * The file name when the server names none (it does: `usuarios-<tenant>.csv`, `empresas.csv`); the
 * audit log's is always the day of the download here, as the picker offered it.
 */
export const listExportFileName = (request: ListExportRequest): string =>
  request.list === 'users' ? 'usuarios.csv' : request.list === 'tenants' ? 'empresas.csv' : auditFileName();

/** What a failed export is called: the audit log keeps its own message. */
const failedKey = (request: ListExportRequest | null): I18nKey =>
  request?.list === 'audit' ? 'audit.errors.export' : 'lists.export.failed';

const FILE_NAME = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i;

export async function streamListCsv(
  rest: RestClient,
  request: ListExportRequest,
  options: Parameters<typeof pipeCsvAnswer>[2],
): Promise<SheetProgress> {
  const common = { headers: { Accept: 'text/csv' }, parseAs: 'stream' as const, signal: options.signal };
  if (request.list === 'audit') {
    const result = await rest.GET('/api/audit', { ...common, params: { query: auditApiQuery(request.query) } });
    return pipeCsvAnswer(result, () => auditFileName(), options);
  }
  const result =
    request.list === 'users'
      ? await rest.GET('/api/users/export', {
          ...common,
          params: {
            query: {
              ...userListApiQuery(request.query),
              ...(request.tenantName ? { tenantName: request.tenantName } : {}),
            },
          },
        })
      : await rest.GET('/api/tenant/export', { ...common, params: { query: toExportQuery(request.query) } });
  return pipeCsvAnswer(
    result,
    (disposition) => (disposition ? FILE_NAME.exec(disposition)?.[1] : undefined) ?? listExportFileName(request),
    options,
  );
}

type StreamEvent =
  | { type: 'export.opened'; file: SheetFile }
  | { type: 'export.progress'; progress: SheetProgress }
  | { type: 'export.finished'; progress: SheetProgress }
  | { type: 'export.failed'; error: unknown };

export type ListExportEvent =
  { type: 'export.start'; request: ListExportRequest; openSink: OpenSink } | { type: 'export.cancel' } | StreamEvent;

export interface ListExportContext {
  rest: RestClient;
  request: ListExportRequest | null;
  openSink: OpenSink | null;
  file: SheetFile | null;
  progress: SheetProgress;
  error: ActionError | null;
}

const streamList = fromCallback<EventObject, { rest: RestClient; request: ListExportRequest; openSink: OpenSink }>(
  ({ input, sendBack }) => {
    const controller = new AbortController();
    const report = (event: StreamEvent) => {
      if (!controller.signal.aborted) sendBack(event);
    };
    streamListCsv(input.rest, input.request, {
      openSink: input.openSink,
      signal: controller.signal,
      onOpen: (file) => report({ type: 'export.opened', file }),
      onProgress: (progress) => report({ type: 'export.progress', progress }),
    }).then(
      (progress) => report({ type: 'export.finished', progress }),
      (error: unknown) => report({ type: 'export.failed', error }),
    );
    return () => controller.abort();
  },
);

/**
 * One list export at a time: `export.start` with the list as shown and where the bytes go;
 * `export.cancel` aborts the request and the sink. States: `idle`, `downloading` (tag `busy`),
 * `ended` (`done`, `failed` with `error`, `cancelled`).
 */
export const listExportMachine = setup({
  types: {
    input: {} as { rest: RestClient },
    context: {} as ListExportContext,
    events: {} as ListExportEvent,
  },
  actors: { streamList },
  actions: {
    begin: assign(({ event }) => {
      assertEvent(event, 'export.start');
      return {
        request: event.request,
        openSink: event.openSink,
        file: null,
        progress: { bytes: 0, rows: 0 },
        error: null,
      };
    }),
    opened: assign(({ event }) => {
      assertEvent(event, 'export.opened');
      return { file: event.file };
    }),
    progress: assign(({ event }) => {
      assertEvent(event, ['export.progress', 'export.finished']);
      return { progress: event.progress };
    }),
    failed: assign(({ context, event }) => {
      assertEvent(event, 'export.failed');
      return { error: actionError(failedKey(context.request), event.error) };
    }),
  },
}).createMachine({
  id: 'listExport',
  context: ({ input }) => ({
    rest: input.rest,
    request: null,
    openSink: null,
    file: null,
    progress: { bytes: 0, rows: 0 },
    error: null,
  }),
  initial: 'idle',
  on: { 'export.start': { target: '.downloading', actions: 'begin' } },
  states: {
    idle: {},
    downloading: {
      tags: ['busy'],
      invoke: {
        id: 'streamList',
        src: 'streamList',
        input: ({ context }) => {
          if (!context.request || !context.openSink) throw new Error('listExport: downloading without a request');
          return { rest: context.rest, request: context.request, openSink: context.openSink };
        },
      },
      on: {
        // One download at a time: a second start waits for this one to end.
        'export.start': {},
        'export.opened': { actions: 'opened' },
        'export.progress': { actions: 'progress' },
        'export.finished': { target: 'ended.done', actions: 'progress' },
        'export.failed': { target: 'ended.failed', actions: 'failed' },
        'export.cancel': 'ended.cancelled',
      },
    },
    ended: { initial: 'done', states: { done: {}, failed: {}, cancelled: {} } },
  },
});

export type ListExportActor = ActorRefFrom<typeof listExportMachine>;

/** How the last download ended; null before the first and while one runs. */
export function selectListExportOutcome(
  s: SnapshotFrom<typeof listExportMachine>,
): 'done' | 'failed' | 'cancelled' | null {
  if (s.matches({ ended: 'done' })) return 'done';
  if (s.matches({ ended: 'failed' })) return 'failed';
  if (s.matches({ ended: 'cancelled' })) return 'cancelled';
  return null;
}
