import { assertEvent, assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { RestClient } from '../../api/rest-client';
import type { I18nKey } from '../../domain/i18n-key';
import { actionError, type ActionError } from '../shared/request-error';
import { dashboardActors, type DashboardCallInput, type SeriesData, type SummaryData } from './dashboard-query-api';
import {
  defaultRange,
  isoDateIn,
  parseDashboardQuery,
  rangeProblem,
  sameDashboardQuery,
  serializeDashboardQuery,
  type DashboardQuery,
} from '../../domain/dashboard-query';

export type { DashboardSummary, SeriesData, SeriesMetric, SeriesPoint, SummaryData } from './dashboard-query-api';

/** What the screen starts the dashboard with. */
export interface DashboardInput {
  rest: RestClient;
  /** The tenant of the address (first path segment). */
  tenantName: string;
  /** Back-office staff (`originBackoffice`) may look at any tenant, or at all of them. */
  staff: boolean;
  /** The staff member's own tenant: opened there, the dashboard starts on every tenant. */
  homeTenant?: string;
  /** The address's query string at start, so a link or a reload restores the filters. */
  search?: string;
  /** Today in São Paulo, `YYYY-MM-DD` (tests); default the real day. */
  today?: string;
}

/** The dashboard's state: the filters (applied and default), the figures and why they failed. */
export interface DashboardContext {
  rest: RestClient;
  staff: boolean;
  /** The filters a plain address means (last 30 days, the default tenant). */
  defaults: DashboardQuery;
  query: DashboardQuery;
  /** `serializeDashboardQuery(query, defaults)`: what the view writes into the address. */
  queryString: string;
  summary: SummaryData | null;
  series: SeriesData | null;
  summaryError: ActionError | null;
  seriesError: ActionError | null;
  /** A refused range, as an i18n key; the filters shown stay the last valid ones. */
  invalid: I18nKey | null;
}

/** Filter changes from the view (`dashboard.location`: the address changed), and a retry after a failure. */
export type DashboardEvent =
  | { type: 'dashboard.range'; startAt: string; finishAt: string }
  | { type: 'dashboard.tenant'; tenant: string | null }
  | { type: 'dashboard.location'; search: string }
  | { type: 'dashboard.retry' };

/** Emitted when the user changed a filter: the view replaces the address's query with `search`. */
export type DashboardEmitted = { type: 'dashboard.queryChanged'; search: string };

/** The events that change the filters. */
const FILTER_EVENTS = ['dashboard.range', 'dashboard.tenant', 'dashboard.location'] as const;

/** The query a filter event asks for (same as the current one when the event changes nothing). */
function requested(
  context: DashboardContext,
  event: Extract<DashboardEvent, { type: (typeof FILTER_EVENTS)[number] }>,
): DashboardQuery {
  switch (event.type) {
    case 'dashboard.range':
      return { ...context.query, startAt: event.startAt, finishAt: event.finishAt };
    case 'dashboard.tenant':
      return context.staff ? { ...context.query, tenant: event.tenant } : context.query;
    case 'dashboard.location':
      return normalize(parseDashboardQuery(event.search, context.defaults), context.staff, context.defaults);
  }
}

/** Others than staff always see their own tenant, whatever the address says. */
function normalize(query: DashboardQuery, staff: boolean, defaults: DashboardQuery): DashboardQuery {
  return staff ? query : { ...query, tenant: defaults.tenant };
}

const callInput = (context: DashboardContext): DashboardCallInput => ({
  rest: context.rest,
  query: context.query,
  staff: context.staff,
});

/**
 * The dashboards (`/dashboard/analytics`, `/dashboard/control-panel`, `/dashboard/maria-panel`; contract
 * extensions `dashboardSummary` and `dashboardTimeseries`). Filters: a date range (default the last
 * 30 days) and, for back-office staff, a tenant or every tenant; others always see their own. The KPIs
 * (with the previous period of the same length, for the change) and the four series load in parallel.
 * The filters are mirrored in the address (input `search`, context `queryString`, emitted
 * `dashboard.queryChanged`; an address change is sent back as `dashboard.location`).
 *
 * Only the latest request is ever shown: every filter change re-enters `loading`, which stops and
 * aborts the calls in flight, and a stopped actor's answer never reaches the machine.
 *
 * States: `loading` (parallel `summary` and `series`, each `pending` → `done` | `failed`; tags
 * `loading`, `summaryLoading`, `seriesLoading`), then `ready`. Errors are i18n keys
 * (`summaryError`, `seriesError`, `invalid`).
 */
export const dashboardMachine = setup({
  types: {
    input: {} as DashboardInput,
    context: {} as DashboardContext,
    events: {} as DashboardEvent,
    emitted: {} as DashboardEmitted,
  },
  actors: dashboardActors,
  guards: {
    rangeRefused: ({ event }) => {
      assertEvent(event, 'dashboard.range');
      return rangeProblem(event.startAt, event.finishAt) !== null;
    },
    queryChanged: ({ context, event }) => {
      assertEvent(event, FILTER_EVENTS);
      return !sameDashboardQuery(requested(context, event), context.query);
    },
  },
  actions: {
    applyQuery: assign(({ context, event }) => {
      assertEvent(event, FILTER_EVENTS);
      const query = requested(context, event);
      return { query, queryString: serializeDashboardQuery(query, context.defaults), invalid: null };
    }),
    announceQuery: emit(({ context }) => ({ type: 'dashboard.queryChanged' as const, search: context.queryString })),
    refuseRange: assign(({ event }) => {
      assertEvent(event, 'dashboard.range');
      return {
        invalid:
          rangeProblem(event.startAt, event.finishAt) === 'tooLong'
            ? ('dashboard.errors.rangeTooLong' as const)
            : ('dashboard.errors.range' as const),
      };
    }),
    clearInvalid: assign({ invalid: null }),
    // Nothing of the previous filters stays on screen while the new ones load.
    startLoading: assign({ summary: null, series: null, summaryError: null, seriesError: null }),
    storeSummary: assign((_, summary: SummaryData) => ({ summary })),
    storeSeries: assign((_, series: SeriesData) => ({ series })),
    summaryFailed: assign((_, params: { error: unknown }) => ({
      summary: null,
      summaryError: actionError('dashboard.errors.summary', params.error),
    })),
    seriesFailed: assign((_, params: { error: unknown }) => ({
      series: null,
      seriesError: actionError('dashboard.errors.series', params.error),
    })),
  },
}).createMachine({
  id: 'dashboard',
  context: ({ input }) => {
    const range = defaultRange(input.today ?? isoDateIn(new Date()));
    const everyTenant = input.staff && (input.homeTenant === undefined || input.homeTenant === input.tenantName);
    const defaults: DashboardQuery = { ...range, tenant: everyTenant ? null : input.tenantName };
    const query = normalize(parseDashboardQuery(input.search ?? '', defaults), input.staff, defaults);
    return {
      rest: input.rest,
      staff: input.staff,
      defaults,
      query,
      queryString: serializeDashboardQuery(query, defaults),
      summary: null,
      series: null,
      summaryError: null,
      seriesError: null,
      invalid: null,
    };
  },
  initial: 'loading',
  // Filters apply in every state. A change (re)enters `loading`: from the root, `.loading` exits
  // whatever is active, so the calls in flight are stopped and started again with the new query.
  on: {
    'dashboard.range': [
      { guard: 'rangeRefused', actions: 'refuseRange' },
      { guard: 'queryChanged', target: '.loading', actions: ['applyQuery', 'announceQuery'] },
      { actions: 'clearInvalid' },
    ],
    'dashboard.tenant': { guard: 'queryChanged', target: '.loading', actions: ['applyQuery', 'announceQuery'] },
    'dashboard.location': { guard: 'queryChanged', target: '.loading', actions: 'applyQuery' },
  },
  states: {
    loading: {
      type: 'parallel',
      tags: ['loading'],
      entry: 'startLoading',
      states: {
        summary: {
          initial: 'pending',
          states: {
            pending: {
              tags: ['summaryLoading'],
              invoke: {
                id: 'loadSummary',
                src: 'loadSummary',
                input: ({ context }) => callInput(context),
                onDone: { target: 'done', actions: { type: 'storeSummary', params: ({ event }) => event.output } },
                onError: {
                  target: 'failed',
                  actions: { type: 'summaryFailed', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
            done: { type: 'final' },
            failed: { type: 'final' },
          },
        },
        series: {
          initial: 'pending',
          states: {
            pending: {
              tags: ['seriesLoading'],
              invoke: {
                id: 'loadSeries',
                src: 'loadSeries',
                input: ({ context }) => callInput(context),
                onDone: { target: 'done', actions: { type: 'storeSeries', params: ({ event }) => event.output } },
                onError: {
                  target: 'failed',
                  actions: { type: 'seriesFailed', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
            done: { type: 'final' },
            failed: { type: 'final' },
          },
        },
      },
      onDone: 'ready',
    },
    ready: {
      on: { 'dashboard.retry': 'loading' },
    },
  },
});

/** A running dashboard, as views hold it. */
export type DashboardActor = ActorRefFrom<typeof dashboardMachine>;
export type DashboardSnapshot = SnapshotFrom<typeof dashboardMachine>;
