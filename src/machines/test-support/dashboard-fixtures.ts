import { createActor } from 'xstate';
import { dashboardMachine, type DashboardInput, type DashboardSummary } from '../dashboard/dashboard.machine';
import { json, type SeenRequest } from './fake-fetch';

/** Test fixtures for the dashboard machine's tests: a fixed "today" and a fake API that tags answers. */

export const TODAY = '2026-11-21';

/** A summary with `orders` as its tag. */
export const summary = (orders: number, extra: Partial<DashboardSummary> = {}): DashboardSummary => ({
  startAt: '2026-10-23',
  finishAt: TODAY,
  orders,
  revenue: orders * 128.5,
  averageTicket: 128.5,
  attendances: 980,
  ticketsOpen: 37,
  ticketsClosed: 943,
  onlineUsers: 6,
  ...extra,
});

/**
 * Answers from the request itself (the start day, plus 1000 with a tenant), so a test can tell
 * which filters an answer belongs to.
 */
export function api(request: SeenRequest): Response {
  const q = Object.fromEntries(request.query);
  const tag = Number(q['startAt']?.slice(8)) + (q['tenantName'] ? 1000 : 0);
  if (request.path === '/api/dashboard/summary')
    return json(200, summary(tag, { startAt: q['startAt'], finishAt: q['finishAt'] }));
  if (request.path === '/api/dashboard/timeseries')
    return json(200, { metric: q['metric'], interval: q['interval'], points: [{ date: q['startAt'], value: tag }] });
  return json(404, { message: 'no fake' });
}

/** A started dashboard for staff at home (every tenant) on {@link TODAY}, unless the input says otherwise. */
export function start(input: Partial<DashboardInput> & { rest: DashboardInput['rest'] }) {
  return createActor(dashboardMachine, {
    input: { tenantName: 'backoffice', staff: true, homeTenant: 'backoffice', today: TODAY, ...input },
  }).start();
}
