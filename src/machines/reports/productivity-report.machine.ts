import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { ApiError } from '../../api/api-error';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import { isValidRange, type DateRange } from '../../domain/date-range';
import type { I18nKey } from '../../domain/i18n-key';
import { actionError, type ActionError } from '../shared/request-error';

export type ProductivityRow = components['schemas']['ProductivityRow'];
export type ProductivityKey = keyof ProductivityRow;
export interface ProductivitySort {
  key: ProductivityKey;
  direction: 'asc' | 'desc';
}

export interface ProductivityReportInput extends Partial<DateRange> {
  rest: RestClient;
  /** Back-office staff may pick a tenant; absent means the caller's own. */
  tenantName?: string;
}

export interface ProductivityReportContext {
  rest: RestClient;
  tenantName: string | undefined;
  range: DateRange;
  rows: ProductivityRow[];
  sort: ProductivitySort;
  error: ActionError | null;
  invalid: I18nKey | null;
}

export type ProductivityReportEvent =
  | { type: 'reports.range'; startAt: string; finishAt: string }
  | { type: 'reports.run' }
  | { type: 'reports.sort'; key: ProductivityKey };

const collator = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });

/** Rows in the given order (a stable sort; ties keep the server's order). */
export function sortProductivity(rows: readonly ProductivityRow[], sort: ProductivitySort): ProductivityRow[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => {
      const x = a.row[sort.key];
      const y = b.row[sort.key];
      const order = typeof x === 'string' && typeof y === 'string' ? collator.compare(x, y) : Number(x) - Number(y);
      return order === 0 ? a.index - b.index : sign * order;
    })
    .map(({ row }) => row);
}

/**
 * The productivity report (`/dashboard/produtivity-report`, contract extension
 * `GET /api/dashboard/productivity`): one row per attendant for a date range, sorted client-side
 * (`reports.sort` on a column flips its direction). A failed report is an empty list plus `error`.
 * Read the ordered rows with {@link sortedProductivity}.
 *
 * States: `editing.idle` (not run yet), `loading` (tag `busy`), `editing.done`. The range can change and
 * a run start only while `editing`; sorting works in every state.
 */
export const productivityReportMachine = setup({
  types: {
    input: {} as ProductivityReportInput,
    context: {} as ProductivityReportContext,
    events: {} as ProductivityReportEvent,
  },
  actors: {
    loadProductivity: fromPromise<
      ProductivityRow[],
      { rest: RestClient; range: DateRange; tenantName: string | undefined }
    >(async ({ input, signal }) => {
      const result = await input.rest.GET('/api/dashboard/productivity', {
        params: {
          query: {
            startAt: input.range.startAt,
            finishAt: input.range.finishAt,
            ...(input.tenantName ? { tenantName: input.tenantName } : {}),
          },
        },
        // The same operation streams CSV for `text/csv`; the screen wants the JSON rows.
        headers: { Accept: 'application/json' },
        signal,
      });
      const rows = unwrap(result);
      if (!Array.isArray(rows)) throw new ApiError(result.response.status, rows, 'Expected JSON rows');
      return rows;
    }),
  },
  guards: {
    validRange: ({ context }) => isValidRange(context.range),
  },
  actions: {
    setRange: assign(({ event }) => {
      assertEvent(event, 'reports.range');
      return { range: { startAt: event.startAt, finishAt: event.finishAt }, invalid: null };
    }),
    sortBy: assign(({ context, event }) => {
      assertEvent(event, 'reports.sort');
      const direction = context.sort.key === event.key && context.sort.direction === 'asc' ? 'desc' : 'asc';
      return { sort: { key: event.key, direction } };
    }),
    refuseRange: assign({ invalid: 'reports.errors.range' as const }),
    storeRows: assign((_, rows: ProductivityRow[]) => ({ rows, error: null })),
    reportFailed: assign((_, params: { error: unknown }) => ({
      rows: [],
      error: actionError('reports.errors.productivity', params.error),
    })),
  },
}).createMachine({
  id: 'productivityReport',
  context: ({ input }) => ({
    rest: input.rest,
    tenantName: input.tenantName,
    range: { startAt: input.startAt ?? '', finishAt: input.finishAt ?? input.startAt ?? '' },
    rows: [],
    sort: { key: 'attendances', direction: 'desc' },
    error: null,
    invalid: null,
  }),
  initial: 'editing',
  on: { 'reports.sort': { actions: 'sortBy' } },
  states: {
    editing: {
      initial: 'idle',
      on: {
        'reports.range': { actions: 'setRange' },
        'reports.run': [{ guard: 'validRange', target: '#productivityReport.loading' }, { actions: 'refuseRange' }],
      },
      states: { idle: {}, done: {} },
    },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadProductivity',
        src: 'loadProductivity',
        input: ({ context }) => ({ rest: context.rest, range: context.range, tenantName: context.tenantName }),
        onDone: { target: 'editing.done', actions: { type: 'storeRows', params: ({ event }) => event.output } },
        onError: {
          target: 'editing.done',
          actions: { type: 'reportFailed', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
  },
});

export type ProductivityReportSnapshot = SnapshotFrom<typeof productivityReportMachine>;

/** Before the first run (unless its range was refused) counts as loading; a failed run is an error. */
export function selectProductivityStatus(s: ProductivityReportSnapshot): 'loading' | 'error' | 'ready' {
  if (s.hasTag('busy') || (s.matches({ editing: 'idle' }) && !s.context.invalid)) return 'loading';
  return s.context.error ? 'error' : 'ready';
}

/** The rows in the chosen order. */
export function sortedProductivity(snapshot: ProductivityReportSnapshot): ProductivityRow[] {
  return sortProductivity(snapshot.context.rows, snapshot.context.sort);
}
