import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { ApiError } from '../../api/api-error';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import { isValidRange } from '../../domain/date-range';
import type { I18nKey } from '../../domain/i18n-key';
import { actionError, type ActionError } from '../shared/request-error';
import type { SheetRequest } from './sheet-stream';

/**
 * A sheet previewed in the dashboard's sheets panel: not the productivity report (no preview), nor
 * the login-failure sheet (the login-failure report shows those rows and downloads the full CSV).
 */
export type PreviewRequest = Exclude<SheetRequest, { sheet: 'productivity' | 'login_failures' }>;
export type PreviewSheetName = PreviewRequest['sheet'];

type Schemas = components['schemas'];
export type OrderRow = Schemas['OrderRow'];
export type AttendanceRow = Schemas['AttendanceRow'];
export type InstanceLogRow = Schemas['InstanceLogRow'];
export type ReasonRow = Schemas['ReasonRow'];

/** The first rows of a sheet and how many the whole range holds (the CSV has them all). */
export type SheetPreview =
  | { sheet: 'orders'; data: OrderRow[]; total: number; limit: number }
  | { sheet: 'attendances'; data: AttendanceRow[]; total: number; limit: number }
  | { sheet: 'instance_logs'; data: InstanceLogRow[]; total: number; limit: number }
  | { sheet: 'reasons'; data: ReasonRow[]; total: number; limit: number };

/** Rows a preview asks for: enough to recognise the data, small enough for any screen. */
export const PREVIEW_LIMIT = 20;

const json = { headers: { Accept: 'application/json' } } as const;

/** The JSON body of a preview answer (the same operation streams CSV for `text/csv`). */
function previewBody<T extends object>(result: { data?: T | string; error?: unknown; response: Response }): T {
  const body = unwrap(result);
  if (typeof body !== 'object') throw new ApiError(result.response.status, body, 'Expected a JSON preview');
  return body;
}

/** The JSON preview of one sheet through the typed REST client. */
async function fetchPreview(rest: RestClient, request: PreviewRequest, signal: AbortSignal): Promise<SheetPreview> {
  const options = { ...json, signal };
  switch (request.sheet) {
    case 'orders':
      return {
        sheet: 'orders',
        ...previewBody(
          await rest.GET('/api/tenant/sheets/orders', {
            ...options,
            params: { query: { ...request.query, limit: PREVIEW_LIMIT } },
          }),
        ),
      };
    case 'attendances':
      return {
        sheet: 'attendances',
        ...previewBody(
          await rest.GET('/api/tenant/sheets/attendances', {
            ...options,
            params: { query: { ...request.query, limit: PREVIEW_LIMIT } },
          }),
        ),
      };
    case 'instance_logs':
      return {
        sheet: 'instance_logs',
        ...previewBody(
          await rest.GET('/api/tenant/sheets/instance_logs', {
            ...options,
            params: { query: { ...request.query, limit: PREVIEW_LIMIT } },
          }),
        ),
      };
    case 'reasons':
      return {
        sheet: 'reasons',
        ...previewBody(
          await rest.GET('/api/tenant/sheets/reasons', {
            ...options,
            params: { query: { ...request.query, limit: PREVIEW_LIMIT } },
          }),
        ),
      };
  }
}

export interface SheetPreviewContext {
  rest: RestClient;
  request: PreviewRequest | null;
  preview: SheetPreview | null;
  error: ActionError | null;
  invalid: I18nKey | null;
}

export type SheetPreviewEvent = { type: 'sheets.preview'; request: PreviewRequest };

const start = [
  { guard: 'validRange', target: '#sheetPreview.loading', actions: 'begin' },
  { actions: 'refuse' },
] as const;

/**
 * The JSON preview of a sheet (`limit` {@link PREVIEW_LIMIT}): its first rows and the total count of
 * the range, so the user sees what the CSV download will hold before streaming it. A new
 * `sheets.preview` while one loads replaces it (the old request is aborted). A failure keeps no rows.
 *
 * States: `idle`, `loading` (tag `busy`), `ready`, `failed` (`error`).
 */
export const sheetPreviewMachine = setup({
  types: {
    input: {} as { rest: RestClient },
    context: {} as SheetPreviewContext,
    events: {} as SheetPreviewEvent,
  },
  actors: {
    loadPreview: fromPromise<SheetPreview, { rest: RestClient; request: PreviewRequest }>(({ input, signal }) =>
      fetchPreview(input.rest, input.request, signal),
    ),
  },
  guards: {
    validRange: ({ event }) => isValidRange(event.request.query),
  },
  actions: {
    begin: assign(({ event }) => ({ request: event.request, error: null, invalid: null })),
    refuse: assign({ invalid: 'sheets.errors.range' as const }),
    store: assign((_, preview: SheetPreview) => ({ preview })),
    failed: assign((_, params: { error: unknown }) => ({
      preview: null,
      error: actionError('sheets.panel.errors.preview', params.error),
    })),
  },
}).createMachine({
  id: 'sheetPreview',
  context: ({ input }) => ({ rest: input.rest, request: null, preview: null, error: null, invalid: null }),
  initial: 'idle',
  on: { 'sheets.preview': start },
  states: {
    idle: {},
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadPreview',
        src: 'loadPreview',
        input: ({ context }) => {
          if (!context.request) throw new Error('sheetPreview: loading without a request');
          return { rest: context.rest, request: context.request };
        },
        onDone: { target: 'ready', actions: { type: 'store', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'failed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    ready: {},
    failed: {},
  },
});

export type SheetPreviewSnapshot = SnapshotFrom<typeof sheetPreviewMachine>;

/** Before the first preview (the debounce) counts as loading; a refused range shows what there is. */
export function selectPreviewStatus(s: SheetPreviewSnapshot): 'loading' | 'error' | 'ready' {
  if (s.hasTag('busy') || (s.matches('idle') && !s.context.invalid)) return 'loading';
  return s.matches('failed') ? 'error' : 'ready';
}
