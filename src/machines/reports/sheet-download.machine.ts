import { assertEvent, assign, fromCallback, setup, type EventObject, type SnapshotFrom } from 'xstate';
import type { RestClient } from '../../api/rest-client';
import { isValidRange } from '../../domain/date-range';
import type { I18nKey } from '../../domain/i18n-key';
import { actionError, type ActionError } from '../shared/request-error';
import { streamSheet, type OpenSink, type SheetFile, type SheetProgress, type SheetRequest } from './sheet-stream';

export interface SheetDownloadInput {
  rest: RestClient;
  /** Opens where the file goes (a file writer, Blob parts…) once its name is known. */
  openSink: OpenSink;
}

export interface SheetDownloadContext {
  rest: RestClient;
  openSink: OpenSink;
  request: SheetRequest | null;
  file: SheetFile | null;
  progress: SheetProgress;
  error: ActionError | null;
  invalid: I18nKey | null;
}

/** What the streaming actor reports. */
type StreamEvent =
  | { type: 'sheets.opened'; file: SheetFile }
  | { type: 'sheets.progress'; progress: SheetProgress }
  | { type: 'sheets.finished'; progress: SheetProgress }
  | { type: 'sheets.failed'; error: unknown };

export type SheetDownloadEvent =
  | { type: 'sheets.download'; request: SheetRequest }
  | { type: 'sheets.cancel' }
  | { type: 'sheets.reset' }
  | StreamEvent;

/** Streams one sheet into a sink and reports; leaving the state (cancel) or stopping aborts it. */
const streamSheetActor = fromCallback<EventObject, { rest: RestClient; request: SheetRequest; openSink: OpenSink }>(
  ({ input, sendBack }) => {
    const controller = new AbortController();
    const report = (event: StreamEvent) => {
      if (!controller.signal.aborted) sendBack(event);
    };
    streamSheet({
      ...input,
      signal: controller.signal,
      onOpen: (file) => report({ type: 'sheets.opened', file }),
      onProgress: (progress) => report({ type: 'sheets.progress', progress }),
    }).then(
      (progress) => report({ type: 'sheets.finished', progress }),
      (error: unknown) => report({ type: 'sheets.failed', error }),
    );
    return () => controller.abort();
  },
);

const start = [
  { guard: 'validRange', target: '#sheetDownload.downloading', actions: 'begin' },
  { actions: 'refuse' },
] as const;

/**
 * Sheet download with progress (orders, attendances, instance logs, reasons, and the productivity
 * report): the CSV variant streamed chunk by chunk into the sink from `openSink`, never whole in
 * memory; progress in bytes and rows; `sheets.cancel` aborts the request and the sink.
 *
 * States: `idle`, `downloading` (tag `busy`), and `ended` (`done`, `failed` with `error`, `cancelled`),
 * from which a new download starts or `sheets.reset` goes back to `idle`. Read the outcome with
 * {@link selectDownloadOutcome}.
 */
export const sheetDownloadMachine = setup({
  types: {
    input: {} as SheetDownloadInput,
    context: {} as SheetDownloadContext,
    events: {} as SheetDownloadEvent,
  },
  actors: { streamSheet: streamSheetActor },
  guards: {
    validRange: ({ event }) => {
      assertEvent(event, 'sheets.download');
      return isValidRange(event.request.query);
    },
  },
  actions: {
    begin: assign(({ event }) => {
      assertEvent(event, 'sheets.download');
      return { request: event.request, file: null, progress: { bytes: 0, rows: 0 }, error: null, invalid: null };
    }),
    refuse: assign({ invalid: 'sheets.errors.range' as const }),
    opened: assign(({ event }) => {
      assertEvent(event, 'sheets.opened');
      return { file: event.file };
    }),
    progress: assign(({ event }) => {
      assertEvent(event, ['sheets.progress', 'sheets.finished']);
      return { progress: event.progress };
    }),
    failed: assign(({ event }) => {
      assertEvent(event, 'sheets.failed');
      return { error: actionError('sheets.errors.download', event.error) };
    }),
    reset: assign({ request: null, file: null, progress: () => ({ bytes: 0, rows: 0 }), error: null, invalid: null }),
  },
}).createMachine({
  id: 'sheetDownload',
  context: ({ input }) => ({
    rest: input.rest,
    openSink: input.openSink,
    request: null,
    file: null,
    progress: { bytes: 0, rows: 0 },
    error: null,
    invalid: null,
  }),
  initial: 'idle',
  states: {
    idle: { on: { 'sheets.download': start } },
    downloading: {
      tags: ['busy'],
      invoke: {
        id: 'streamSheet',
        src: 'streamSheet',
        input: ({ context }) => {
          if (!context.request) throw new Error('sheetDownload: downloading without a request');
          return { rest: context.rest, request: context.request, openSink: context.openSink };
        },
      },
      on: {
        'sheets.opened': { actions: 'opened' },
        'sheets.progress': { actions: 'progress' },
        'sheets.finished': { target: 'ended.done', actions: 'progress' },
        'sheets.failed': { target: 'ended.failed', actions: 'failed' },
        'sheets.cancel': 'ended.cancelled',
      },
    },
    ended: {
      // Always entered at a named child; XState wants an `initial` all the same.
      initial: 'done',
      on: { 'sheets.download': start, 'sheets.reset': { target: 'idle', actions: 'reset' } },
      states: { done: {}, failed: {}, cancelled: {} },
    },
  },
});

export type SheetDownloadSnapshot = SnapshotFrom<typeof sheetDownloadMachine>;

/** How the last download ended; `null` before the first one and while one runs. */
export function selectDownloadOutcome(s: SheetDownloadSnapshot): 'done' | 'failed' | 'cancelled' | null {
  if (s.matches({ ended: 'done' })) return 'done';
  if (s.matches({ ended: 'failed' })) return 'failed';
  if (s.matches({ ended: 'cancelled' })) return 'cancelled';
  return null;
}
