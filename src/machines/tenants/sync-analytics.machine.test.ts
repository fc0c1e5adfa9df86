import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
  type PathStrategy,
} from '../test-support/graph-coverage';
import { deferred, fakeServer, flush, json } from '../test-support/fake-fetch';
import {
  MAX_SYNC_DAYS,
  syncAnalyticsMachine,
  syncRangeProblem,
  type SyncAnalyticsResult,
} from './sync-analytics.machine';

const tenantName = 'farmacia-central';
const answer: SyncAnalyticsResult = {
  tenantName,
  fromDate: '2026-10-01',
  toDate: '2026-10-31',
  forceUpdate: true,
  recomputedDays: 31,
  skippedDays: 0,
  rows: 4120,
  durationMs: 180,
};
const unusedRest = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
}).rest;

describe('syncAnalyticsMachine: model coverage', () => {
  const machine = syncAnalyticsMachine.provide({ actors: { syncAnalytics: heldPromise() } });

  async function explore(strategies: PathStrategy[]) {
    return exploreCoverage({
      machine,
      strategies,
      input: () => ({ rest: unusedRest, tenantName }),
      events: [
        { type: 'analytics.range', fromDate: '2026-10-01', toDate: '2026-10-31' },
        { type: 'analytics.force', forceUpdate: true },
        { type: 'analytics.sync' },
        doneEvent('syncAnalytics', answer),
        errorEvent('syncAnalytics', new ApiError(503, null)),
      ],
      serializeContext: (context) => [
        context.fromDate,
        context.toDate,
        context.forceUpdate,
        context.result !== null,
        context.error !== null,
        context.invalid,
      ],
    });
  }

  it('shortest paths and one path per edge reach every state and transition', async () => {
    const report = await explore(['shortest', 'transitions']);
    assertFullCoverage(report);
    console.info(`syncAnalyticsMachine (shortest + edges): ${formatCoverage(report)}`);
  });
});

describe('syncRangeProblem', () => {
  it('accepts a range of up to 366 days and refuses reversed, malformed and longer ones', () => {
    expect(syncRangeProblem({ fromDate: '2026-10-01', toDate: '2026-10-01' })).toBeNull();
    expect(syncRangeProblem({ fromDate: '2024-01-01', toDate: '2024-12-31' })).toBeNull();
    expect(MAX_SYNC_DAYS).toBe(366);
    expect(syncRangeProblem({ fromDate: '2024-01-01', toDate: '2025-01-01' })).toBe('tenants.analytics.errors.tooLong');
    expect(syncRangeProblem({ fromDate: '2026-10-02', toDate: '2026-10-01' })).toBe('tenants.analytics.errors.range');
    expect(syncRangeProblem({ fromDate: '2026-02-30', toDate: '2026-03-01' })).toBe('tenants.analytics.errors.range');
    expect(syncRangeProblem({ fromDate: '', toDate: '' })).toBe('tenants.analytics.errors.range');
  });
});

describe('syncAnalyticsMachine: against the REST contract', () => {
  it('sends the tenant, range and force flag, and keeps the answer', async () => {
    const server = fakeServer((request) =>
      json(200, { ...answer, forceUpdate: request.query.get('forceUpdate') === 'true' }),
    );
    const actor = createActor(syncAnalyticsMachine, {
      input: { rest: server.rest, tenantName, fromDate: '2026-10-01', toDate: '2026-10-31' },
    }).start();
    actor.send({ type: 'analytics.force', forceUpdate: true });
    actor.send({ type: 'analytics.sync' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await flush();
    await flush();
    const [request] = server.seen;
    expect(request?.method).toBe('GET');
    expect(request?.path).toBe('/api/tenant/syncAnalytics');
    expect(Object.fromEntries(request?.query ?? [])).toEqual({
      tenantName,
      fromDate: '2026-10-01',
      toDate: '2026-10-31',
      forceUpdate: 'true',
    });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(actor.getSnapshot().context.result).toEqual(answer);
    actor.stop();
  });

  it('refuses a bad range without a call, and says why a failed sync failed', async () => {
    const gate = deferred<Response>();
    const server = fakeServer(() => gate.promise);
    const actor = createActor(syncAnalyticsMachine, {
      input: { rest: server.rest, tenantName, fromDate: '2026-10-31', toDate: '2026-10-01' },
    }).start();
    actor.send({ type: 'analytics.sync' });
    expect(actor.getSnapshot().context.invalid).toBe('tenants.analytics.errors.range');
    expect(server.seen).toHaveLength(0);
    actor.send({ type: 'analytics.range', fromDate: '2026-10-01', toDate: '2026-10-31' });
    expect(actor.getSnapshot().context.invalid).toBeNull();
    actor.send({ type: 'analytics.sync' });
    await flush();
    gate.resolve(json(503, { status: 'unavailable', message: 'down' }));
    await vi.waitFor(() => expect(actor.getSnapshot().matches('editing')).toBe(true));
    expect(actor.getSnapshot().context.error).toEqual({
      key: 'tenants.analytics.errors.sync',
      reason: 'apiErrors.unavailable',
    });
    expect(actor.getSnapshot().context.result).toBeNull();
    actor.stop();
  });
});
