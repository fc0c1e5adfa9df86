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
import { actionError, type ActionError } from '../shared/request-error';
import {
  pipeCsvAnswer,
  type OpenSink,
  type PipeCsvOptions,
  type SheetFile,
  type SheetProgress,
} from '../reports/sheet-stream';
import { auditApiQuery, dayBefore, type AuditQuery } from './audit-query';

/** `auditoria-AAAA-MM-DD.csv`, dated the day of the download. */
export function auditFileName(now: Date = new Date()): string {
  return `auditoria-${dayBefore(0, now)}.csv`;
}

export interface StreamAuditOptions extends PipeCsvOptions {
  rest: RestClient;
  query: AuditQuery;
}

/**
 * Streams the CSV of every record under the filters (`GET /api/audit` with `Accept: text/csv`, the
 * sheets' format: docs/product.md, Sheets and CSV) into a sink, as the sheets download
 * (src/machines/reports/sheet-stream.ts `pipeCsvAnswer`).
 */
export async function streamAuditCsv(options: StreamAuditOptions): Promise<SheetProgress> {
  const result = await options.rest.GET('/api/audit', {
    headers: { Accept: 'text/csv' },
    parseAs: 'stream',
    params: { query: auditApiQuery(options.query) },
    signal: options.signal,
  });
  return pipeCsvAnswer(result, () => auditFileName(), options);
}

type StreamEvent =
  | { type: 'export.opened'; file: SheetFile }
  | { type: 'export.progress'; progress: SheetProgress }
  | { type: 'export.finished'; progress: SheetProgress }
  | { type: 'export.failed'; error: unknown };

export type AuditExportEvent =
  { type: 'export.start'; query: AuditQuery; openSink: OpenSink } | { type: 'export.cancel' } | StreamEvent;

export interface AuditExportContext {
  rest: RestClient;
  query: AuditQuery | null;
  openSink: OpenSink | null;
  file: SheetFile | null;
  progress: SheetProgress;
  error: ActionError | null;
}

const streamAudit = fromCallback<EventObject, { rest: RestClient; query: AuditQuery; openSink: OpenSink }>(
  ({ input, sendBack }) => {
    const controller = new AbortController();
    const report = (event: StreamEvent) => {
      if (!controller.signal.aborted) sendBack(event);
    };
    streamAuditCsv({
      ...input,
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
 * The audit CSV download with progress (rows and bytes), one at a time: `export.start` with the
 * filters and where the bytes go; `export.cancel` aborts the request and the sink. States: `idle`,
 * `downloading` (tag `busy`), `ended` (`done`, `failed` with `error`, `cancelled`).
 */
export const auditExportMachine = setup({
  types: {
    input: {} as { rest: RestClient },
    context: {} as AuditExportContext,
    events: {} as AuditExportEvent,
  },
  actors: { streamAudit },
  actions: {
    begin: assign(({ event }) => {
      assertEvent(event, 'export.start');
      return { query: event.query, openSink: event.openSink, file: null, progress: { bytes: 0, rows: 0 }, error: null };
    }),
    opened: assign(({ event }) => {
      assertEvent(event, 'export.opened');
      return { file: event.file };
    }),
    progress: assign(({ event }) => {
      assertEvent(event, ['export.progress', 'export.finished']);
      return { progress: event.progress };
    }),
    failed: assign(({ event }) => {
      assertEvent(event, 'export.failed');
      return { error: actionError('audit.errors.export', event.error) };
    }),
  },
}).createMachine({
  id: 'auditExport',
  context: ({ input }) => ({
    rest: input.rest,
    query: null,
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
        id: 'streamAudit',
        src: 'streamAudit',
        input: ({ context }) => {
          if (!context.query || !context.openSink) throw new Error('auditExport: downloading without a request');
          return { rest: context.rest, query: context.query, openSink: context.openSink };
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
    ended: {
      initial: 'done',
      states: { done: {}, failed: {}, cancelled: {} },
    },
  },
});

export type AuditExportActor = ActorRefFrom<typeof auditExportMachine>;
export type AuditExportSnapshot = SnapshotFrom<typeof auditExportMachine>;

/** How the last download ended; null before the first and while one runs. */
export function selectExportOutcome(s: AuditExportSnapshot): 'done' | 'failed' | 'cancelled' | null {
  if (s.matches({ ended: 'done' })) return 'done';
  if (s.matches({ ended: 'failed' })) return 'failed';
  if (s.matches({ ended: 'cancelled' })) return 'cancelled';
  return null;
}
