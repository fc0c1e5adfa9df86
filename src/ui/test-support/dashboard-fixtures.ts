import type { DashboardSummary, SeriesMetric } from '../../machines/dashboard/dashboard.machine';
import { json, type SeenRequest } from '../../machines/test-support/fake-fetch';
import { ADMIN_USER } from './render';

/** A fake dashboard API for component tests: 1–3 Nov 2025 and its previous period, 29–31 Oct. */

export const RANGE = '?from=2025-11-01&to=2025-11-03';

export const CURRENT: DashboardSummary = {
  startAt: '2025-11-01',
  finishAt: '2025-11-03',
  orders: 412,
  revenue: 53120.4,
  averageTicket: 128.93,
  attendances: 980,
  ticketsOpen: 37,
  ticketsClosed: 943,
  onlineUsers: 6,
};

export const PREVIOUS: DashboardSummary = {
  ...CURRENT,
  startAt: '2025-10-29',
  finishAt: '2025-10-31',
  orders: 400,
  revenue: 50000,
  averageTicket: 125,
  attendances: 1000,
  ticketsOpen: 40,
  ticketsClosed: 960,
};

export const POINTS: Record<SeriesMetric, number[]> = {
  orders: [130, 150, 132],
  revenue: [17000.1, 19120.3, 17000],
  attendances: [300, 350, 330],
  tickets: [290, 330, 323],
};

const DAYS = ['2025-11-01', '2025-11-02', '2025-11-03'];

export interface FakeDashboardOptions {
  /** Every figure 0 (an empty period). */
  empty?: boolean;
  /** Answer these paths with 503. */
  down?: readonly string[];
}

/** Answers the dashboard calls (any range gets the same figures) and the tenant list. */
export function dashboardApi(options: FakeDashboardOptions = {}) {
  return (r: SeenRequest): Response => {
    if (options.down?.includes(r.path)) return json(503, { status: 'unavailable', message: 'down' });
    const zero = (s: DashboardSummary) =>
      options.empty
        ? { ...s, orders: 0, revenue: 0, averageTicket: 0, attendances: 0, ticketsOpen: 0, ticketsClosed: 0 }
        : s;
    if (r.path === '/api/dashboard/summary')
      return json(200, zero(r.query.get('startAt') === '2025-10-29' ? PREVIOUS : CURRENT));
    if (r.path === '/api/dashboard/timeseries') {
      const metric = r.query.get('metric') as SeriesMetric;
      return json(200, {
        metric,
        interval: 'day',
        points: DAYS.map((date, i) => ({ date, value: options.empty ? 0 : (POINTS[metric][i] ?? 0) })),
      });
    }
    if (r.path === '/api/tenant/false')
      return json(200, [
        { id: 1, name: 'backoffice' },
        { id: 2, name: 'farmacia-central' },
        { id: 3, name: 'drogaria-sul' },
      ]);
    if (r.path === '/api/auth/userInfo') return json(200, { user: ADMIN_USER, has_permission_routes: [] });
    return json(404, { message: `no fake for ${r.path}` });
  };
}
