import { fromPromise } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import { intervalFor, previousRange, type DashboardQuery } from '../../domain/dashboard-query';

/**
 * The dashboard's calls (contract extensions `dashboardSummary`, `dashboardTimeseries`) as named
 * `fromPromise` actors for {@link dashboardMachine}; each takes the client through its input and
 * passes the abort signal on, so a superseded request is cancelled on the wire too.
 */

/** The KPIs of a range (contract `DashboardSummary`). */
export type DashboardSummary = components['schemas']['DashboardSummary'];
/** One metric over time (contract `TimeSeries`). */
export type TimeSeries = components['schemas']['TimeSeries'];
export type SeriesMetric = TimeSeries['metric'];
export type SeriesInterval = TimeSeries['interval'];
export type SeriesPoint = TimeSeries['points'][number];

/** The KPIs of the range, and of the range of the same length just before it (for the change). */
export interface SummaryData {
  current: DashboardSummary;
  /** `null` when that period could not be asked for or its call failed: the cards then show no change. */
  previous: DashboardSummary | null;
  previousRange: { startAt: string; finishAt: string } | null;
}

/** Every charted metric over the range, bucketed by one interval. */
export interface SeriesData {
  interval: SeriesInterval;
  points: Record<SeriesMetric, SeriesPoint[]>;
}

/** What the dashboard's actors receive. */
export interface DashboardCallInput {
  rest: RestClient;
  query: DashboardQuery;
  staff: boolean;
}

/** The metrics charted, in the order their calls are made. */
export const SERIES_METRICS: readonly SeriesMetric[] = ['orders', 'revenue', 'attendances', 'tickets'];

/** `tenantName` only for staff who picked one: absent means every tenant for staff, and one's own tenant for others. */
function tenantParam(input: DashboardCallInput): { tenantName?: string } {
  return input.staff && input.query.tenant !== null ? { tenantName: input.query.tenant } : {};
}

async function fetchSummary(
  input: DashboardCallInput,
  range: { startAt: string; finishAt: string },
  signal: AbortSignal,
): Promise<DashboardSummary> {
  return unwrap(
    await input.rest.GET('/api/dashboard/summary', { params: { query: { ...range, ...tenantParam(input) } }, signal }),
  );
}

/** The period's KPIs; the previous period's are a bonus, so their failure only drops the change. */
export const loadSummary = fromPromise<SummaryData, DashboardCallInput>(async ({ input, signal }) => {
  const before = previousRange(input.query);
  const [current, previous] = await Promise.all([
    fetchSummary(input, input.query, signal),
    before === null ? Promise.resolve(null) : fetchSummary(input, before, signal).catch(() => null),
  ]);
  return { current, previous, previousRange: before };
});

/** The four series in parallel, one interval chosen from the range's length. */
export const loadSeries = fromPromise<SeriesData, DashboardCallInput>(async ({ input, signal }) => {
  const interval = intervalFor(input.query);
  const answers = await Promise.all(
    SERIES_METRICS.map(async (metric) =>
      unwrap(
        await input.rest.GET('/api/dashboard/timeseries', {
          params: {
            query: {
              startAt: input.query.startAt,
              finishAt: input.query.finishAt,
              metric,
              interval,
              ...tenantParam(input),
            },
          },
          signal,
        }),
      ),
    ),
  );
  const points = Object.fromEntries(SERIES_METRICS.map((metric, i) => [metric, answers[i]?.points ?? []])) as Record<
    SeriesMetric,
    SeriesPoint[]
  >;
  return { interval, points };
});

/** The actors {@link dashboardMachine} names in `setup`; tests `provide()` held fakes instead. */
export const dashboardActors = { loadSummary, loadSeries };
