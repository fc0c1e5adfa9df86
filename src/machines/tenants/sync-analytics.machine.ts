import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import { isValidRange, type DateRange } from '../../domain/date-range';
import type { I18nKey } from '../../domain/i18n-key';
import { actionError, type ActionError } from '../shared/request-error';

export type SyncAnalyticsResult = components['schemas']['SyncAnalyticsResult'];

/** The contract's longest range (`toDate` is refused with 400 beyond it). */
export const MAX_SYNC_DAYS = 366;

export interface SyncAnalyticsInput {
  rest: RestClient;
  tenantName: string;
  /** Initial range, `YYYY-MM-DD` (the view usually passes the last 30 days). */
  fromDate?: string;
  toDate?: string;
}

export interface SyncAnalyticsContext {
  rest: RestClient;
  tenantName: string;
  fromDate: string;
  toDate: string;
  forceUpdate: boolean;
  /** The last sync's answer (kept while the form changes: it names its own range). */
  result: SyncAnalyticsResult | null;
  /** The last sync failed: `tenants.analytics.errors.sync` and why. */
  error: ActionError | null;
  /** Why `analytics.sync` was refused locally. */
  invalid: I18nKey | null;
}

export type SyncAnalyticsEvent =
  | { type: 'analytics.range'; fromDate: string; toDate: string }
  | { type: 'analytics.force'; forceUpdate: boolean }
  | { type: 'analytics.sync' };

const DAY_MS = 86_400_000;

/** Days in an inclusive range of valid ISO dates. */
function rangeDays(fromDate: string, toDate: string): number {
  return Math.round((Date.parse(`${toDate}T00:00:00Z`) - Date.parse(`${fromDate}T00:00:00Z`)) / DAY_MS) + 1;
}

/** Why a range cannot be synchronised, or null when it can. */
export function syncRangeProblem(context: Pick<SyncAnalyticsContext, 'fromDate' | 'toDate'>): I18nKey | null {
  const range: DateRange = { startAt: context.fromDate, finishAt: context.toDate };
  if (!isValidRange(range)) return 'tenants.analytics.errors.range';
  if (rangeDays(context.fromDate, context.toDate) > MAX_SYNC_DAYS) return 'tenants.analytics.errors.tooLong';
  return null;
}

/**
 * Recomputes a tenant's analytics aggregates (`GET /api/tenant/syncAnalytics`) for a date range,
 * optionally forcing days already aggregated; the answer (days recomputed and kept, rows read,
 * duration) stays in `result` for the view. A bad or too-long range is refused before any call.
 *
 * States: `editing`, `syncing` (tag `busy`).
 */
export const syncAnalyticsMachine = setup({
  types: {
    input: {} as SyncAnalyticsInput,
    context: {} as SyncAnalyticsContext,
    events: {} as SyncAnalyticsEvent,
  },
  actors: {
    syncAnalytics: fromPromise<
      SyncAnalyticsResult,
      Pick<SyncAnalyticsContext, 'rest' | 'tenantName' | 'fromDate' | 'toDate' | 'forceUpdate'>
    >(async ({ input, signal }) =>
      unwrap(
        await input.rest.GET('/api/tenant/syncAnalytics', {
          params: {
            query: {
              tenantName: input.tenantName,
              fromDate: input.fromDate,
              toDate: input.toDate,
              forceUpdate: input.forceUpdate,
            },
          },
          signal,
        }),
      ),
    ),
  },
  guards: {
    canSync: ({ context }) => syncRangeProblem(context) === null,
  },
  actions: {
    setRange: assign(({ event }) => {
      assertEvent(event, 'analytics.range');
      return { fromDate: event.fromDate, toDate: event.toDate, invalid: null };
    }),
    setForce: assign(({ event }) => {
      assertEvent(event, 'analytics.force');
      return { forceUpdate: event.forceUpdate };
    }),
    refuse: assign(({ context }) => ({ invalid: syncRangeProblem(context) })),
    start: assign({ error: null, invalid: null }),
    store: assign((_, result: SyncAnalyticsResult) => ({ result, error: null })),
    fail: assign((_, params: { error: unknown }) => ({
      error: actionError('tenants.analytics.errors.sync', params.error),
    })),
  },
}).createMachine({
  id: 'syncAnalytics',
  context: ({ input }) => ({
    rest: input.rest,
    tenantName: input.tenantName,
    fromDate: input.fromDate ?? '',
    toDate: input.toDate ?? input.fromDate ?? '',
    forceUpdate: false,
    result: null,
    error: null,
    invalid: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'analytics.range': { actions: 'setRange' },
        'analytics.force': { actions: 'setForce' },
        'analytics.sync': [{ guard: 'canSync', target: 'syncing', actions: 'start' }, { actions: 'refuse' }],
      },
    },
    syncing: {
      tags: ['busy'],
      invoke: {
        id: 'syncAnalytics',
        src: 'syncAnalytics',
        input: ({ context }) => ({
          rest: context.rest,
          tenantName: context.tenantName,
          fromDate: context.fromDate,
          toDate: context.toDate,
          forceUpdate: context.forceUpdate,
        }),
        onDone: { target: 'editing', actions: { type: 'store', params: ({ event }) => event.output } },
        onError: { target: 'editing', actions: { type: 'fail', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});

export type SyncAnalyticsSnapshot = SnapshotFrom<typeof syncAnalyticsMachine>;
