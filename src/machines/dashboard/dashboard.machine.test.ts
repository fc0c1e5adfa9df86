import { ApiError } from '../../api/api-error';
import { dashboardMachine, type SeriesData, type SummaryData } from './dashboard.machine';
import { api, start, summary, TODAY } from '../test-support/dashboard-fixtures';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
} from '../test-support/graph-coverage';
import { fakeServer, flush, json } from '../test-support/fake-fetch';

const summaryData: SummaryData = {
  current: summary(412),
  previous: summary(400),
  previousRange: { startAt: '2026-09-23', finishAt: '2026-10-22' },
};
const seriesData: SeriesData = { interval: 'day', points: { orders: [], revenue: [], attendances: [], tickets: [] } };
const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

describe('dashboardMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: dashboardMachine.provide({ actors: { loadSummary: heldPromise(), loadSeries: heldPromise() } }),
      input: () => ({
        rest: unused.rest,
        tenantName: 'backoffice',
        staff: true,
        homeTenant: 'backoffice',
        today: TODAY,
      }),
      events: [
        { type: 'dashboard.range', startAt: '2026-11-01', finishAt: '2026-11-07' },
        { type: 'dashboard.range', startAt: '2026-10-23', finishAt: TODAY },
        { type: 'dashboard.range', startAt: '2026-11-08', finishAt: '2026-11-01' },
        { type: 'dashboard.tenant', tenant: 'farmacia-central' },
        { type: 'dashboard.location', search: '' },
        { type: 'dashboard.retry' },
        doneEvent('loadSummary', summaryData),
        errorEvent('loadSummary', new ApiError(503, null)),
        doneEvent('loadSeries', seriesData),
        errorEvent('loadSeries', new ApiError(403, null)),
      ],
      serializeContext: (context) => context.query,
      simpleScenarios: [
        {
          events: [
            doneEvent('loadSummary', summaryData),
            errorEvent('loadSummary', new ApiError(503, null)),
            doneEvent('loadSeries', seriesData),
            errorEvent('loadSeries', new ApiError(403, null)),
          ],
        },
        {
          prefix: [doneEvent('loadSummary', summaryData), doneEvent('loadSeries', seriesData)],
          events: [
            { type: 'dashboard.tenant', tenant: 'farmacia-central' },
            { type: 'dashboard.location', search: '' },
            { type: 'dashboard.retry' },
          ],
        },
      ],
    });
    assertFullCoverage(report);
    console.info(`dashboardMachine: ${formatCoverage(report)}`);
  });
});

describe('dashboardMachine: against the REST contract', () => {
  it('loads the KPIs (and the previous period) and the four series of the last 30 days in parallel, for every tenant', async () => {
    const fake = fakeServer(api);
    const actor = start({ rest: fake.rest });
    expect(actor.getSnapshot().hasTag('summaryLoading') && actor.getSnapshot().hasTag('seriesLoading')).toBe(true);
    await flush();
    const queries = fake.seen.map((r) => `${r.path}?${r.query.toString()}`);
    expect(queries).toEqual([
      '/api/dashboard/summary?startAt=2026-10-23&finishAt=2026-11-21',
      '/api/dashboard/summary?startAt=2026-09-23&finishAt=2026-10-22',
      '/api/dashboard/timeseries?startAt=2026-10-23&finishAt=2026-11-21&metric=orders&interval=day',
      '/api/dashboard/timeseries?startAt=2026-10-23&finishAt=2026-11-21&metric=revenue&interval=day',
      '/api/dashboard/timeseries?startAt=2026-10-23&finishAt=2026-11-21&metric=attendances&interval=day',
      '/api/dashboard/timeseries?startAt=2026-10-23&finishAt=2026-11-21&metric=tickets&interval=day',
    ]);
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(context.summary?.current.orders).toBe(23);
    expect(context.summary?.previous?.startAt).toBe('2026-09-23');
    expect(context.series?.points.tickets).toEqual([{ date: '2026-10-23', value: 23 }]);
    expect(context.queryString).toBe('');
  });

  it('staff pick a tenant (sent as tenantName, mirrored in the address); in another tenant they start on it', async () => {
    const fake = fakeServer(api);
    const actor = start({ rest: fake.rest });
    const emitted: string[] = [];
    actor.on('dashboard.queryChanged', (e) => emitted.push(e.search));
    await flush();
    fake.seen.length = 0;
    actor.send({ type: 'dashboard.tenant', tenant: 'farmacia-central' });
    await flush();
    expect(fake.seen.every((r) => r.query.get('tenantName') === 'farmacia-central')).toBe(true);
    expect(emitted).toEqual(['tenant=farmacia-central']);
    const elsewhere = start({ rest: fake.rest, tenantName: 'farmacia-central' });
    expect(elsewhere.getSnapshot().context.query.tenant).toBe('farmacia-central');
    elsewhere.send({ type: 'dashboard.tenant', tenant: null });
    expect(elsewhere.getSnapshot().context.queryString).toBe('tenant=*');
  });

  it('others see their own tenant only: no tenantName is sent and the address cannot change it', async () => {
    const fake = fakeServer(api);
    const actor = start({
      rest: fake.rest,
      staff: false,
      tenantName: 'farmacia-central',
      search: 'tenant=outra&from=2026-11-01&to=2026-11-02',
    });
    await flush();
    expect(actor.getSnapshot().context.query).toEqual({
      startAt: '2026-11-01',
      finishAt: '2026-11-02',
      tenant: 'farmacia-central',
    });
    expect(fake.seen.every((r) => !r.query.has('tenantName'))).toBe(true);
    const before = fake.seen.length;
    actor.send({ type: 'dashboard.tenant', tenant: null });
    expect(fake.seen.length).toBe(before);
    expect(actor.getSnapshot().value).toBe('ready');
  });

  it('restores filters from the address, reloads on an address change without writing it back, picks weeks for long ranges', async () => {
    const fake = fakeServer(api);
    const actor = start({ rest: fake.rest, search: '?from=2026-06-01&to=2026-09-30&tenant=farmacia-central' });
    const emitted: string[] = [];
    actor.on('dashboard.queryChanged', (e) => emitted.push(e.search));
    await flush();
    expect(fake.seen.find((r) => r.query.get('metric') === 'orders')?.query.get('interval')).toBe('week');
    fake.seen.length = 0;
    actor.send({ type: 'dashboard.location', search: 'from=2026-06-01&to=2026-09-30&tenant=farmacia-central' });
    expect(fake.seen.length).toBe(0);
    actor.send({ type: 'dashboard.location', search: '' });
    await flush();
    expect(actor.getSnapshot().context.query).toEqual({ startAt: '2026-10-23', finishAt: TODAY, tenant: null });
    expect(fake.seen.length).toBe(6);
    expect(emitted).toEqual([]);
  });

  it('refuses a reversed or over-long range locally with an i18n key and keeps the figures', async () => {
    const fake = fakeServer(api);
    const actor = start({ rest: fake.rest });
    await flush();
    const count = fake.seen.length;
    actor.send({ type: 'dashboard.range', startAt: '2026-11-10', finishAt: '2026-11-01' });
    expect(actor.getSnapshot().context.invalid).toBe('dashboard.errors.range');
    actor.send({ type: 'dashboard.range', startAt: '2024-01-01', finishAt: '2025-01-01' });
    expect(actor.getSnapshot().context.invalid).toBe('dashboard.errors.rangeTooLong');
    expect(fake.seen.length).toBe(count);
    expect(actor.getSnapshot().context.summary?.current.orders).toBe(23);
    actor.send({ type: 'dashboard.range', startAt: '2026-10-23', finishAt: TODAY });
    expect(actor.getSnapshot().context.invalid).toBeNull();
  });

  it('reports each failure as i18n keys, keeps the other half, drops only the change when the previous period fails; retry reloads', async () => {
    let down = true;
    const fake = fakeServer((r) => {
      if (r.path === '/api/dashboard/summary' && r.query.get('startAt') === '2026-09-23')
        return json(500, { message: 'boom' });
      if (down && r.path === '/api/dashboard/timeseries') return json(503, { status: 'unavailable', message: 'down' });
      return api(r);
    });
    const actor = start({ rest: fake.rest });
    await flush();
    let { context } = actor.getSnapshot();
    expect(context.summary?.current.orders).toBe(23);
    expect(context.summary?.previous).toBeNull();
    expect(context.series).toBeNull();
    expect(context.seriesError).toEqual({ key: 'dashboard.errors.series', reason: 'apiErrors.unavailable' });
    down = false;
    actor.send({ type: 'dashboard.retry' });
    expect(actor.getSnapshot().context.seriesError).toBeNull();
    await flush();
    context = actor.getSnapshot().context;
    expect(context.series?.points.orders).toHaveLength(1);

    const forbidden = start({ rest: fakeServer(() => json(403, { message: 'Forbidden' })).rest });
    await flush();
    expect(forbidden.getSnapshot().context.summaryError).toEqual({
      key: 'dashboard.errors.summary',
      reason: 'apiErrors.forbidden',
    });
  });
});
