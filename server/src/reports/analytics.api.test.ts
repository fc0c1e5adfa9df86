import { sql } from 'kysely';
import { saoPauloDay } from '../db/analytics';
import { startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { parseCsv } from '../test-support/csv';

let t: TestApp;
let admin: { authorization: string };
let operador: { authorization: string };
let tenant: { id: number; name: string };

const finishAt = saoPauloDay(new Date());
const startAt = saoPauloDay(new Date(Date.now() - 29 * 86_400_000));
const ok = { valid: true, errors: [] };
const qs = (query: Record<string, string | number | boolean>) =>
  new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.auth('admin@demo.local');
  operador = await t.auth('operador@demo.local');
  tenant = await t.db
    .selectFrom('tenants')
    .select(['id', 'name'])
    .where('deleted_at', 'is', null)
    .where('name', '!=', 'backoffice')
    .orderBy('id')
    .executeTakeFirstOrThrow();
}, 180_000);

afterAll(async () => t.close());

describe('tenant analytics', () => {
  it('syncAnalytics recomputes every day with forceUpdate and keeps finished days without it', async () => {
    const query = { tenantName: tenant.name, fromDate: startAt, toDate: finishAt };
    const forced = await t.app.fastify.inject({
      url: `/api/tenant/syncAnalytics?${qs({ ...query, forceUpdate: true })}`,
      headers: admin,
    });
    expect(forced.statusCode).toBe(200);
    expect(validateResponse('tenantSyncAnalytics', 200, forced.json())).toEqual(ok);
    expect(forced.json()).toMatchObject({
      tenantName: tenant.name,
      forceUpdate: true,
      recomputedDays: 30,
      skippedDays: 0,
    });
    expect(forced.json<{ rows: number }>().rows).toBeGreaterThan(0);
    const lazy = await t.app.fastify.inject({ url: `/api/tenant/syncAnalytics?${qs(query)}`, headers: admin });
    expect(validateResponse('tenantSyncAnalytics', 200, lazy.json())).toEqual(ok);
    expect(lazy.json<{ skippedDays: number }>().skippedDays).toBeGreaterThanOrEqual(29);
    const reversed = await t.app.fastify.inject({
      url: `/api/tenant/syncAnalytics?${qs({ ...query, fromDate: finishAt, toDate: '2020-01-01' })}`,
      headers: admin,
    });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('query/toDate');
  });

  it('generates a campaign-status webhook delivery counted from the tenant orders', async () => {
    const response = await t.app.fastify.inject({
      url: `/api/tenant/generate-campaign-status-webhook?${qs({ tenantName: tenant.name, startAt, finishAt, type: 'delivered' })}`,
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ deliveries: number; deliveryId: number }>();
    expect(validateResponse('tenantGenerateCampaignStatusWebhook', 200, body)).toEqual(ok);
    const row = await t.db
      .selectFrom('webhook_runs')
      .selectAll()
      .where('id', '=', body.deliveryId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      tenant_id: tenant.id,
      type: 'delivered',
      start_at: startAt,
      finish_at: finishAt,
      total: body.deliveries,
    });
    expect(body.deliveries).toBeGreaterThan(0);
  });

  it('gives operador 403 on tenant analytics', async () => {
    const response = await t.app.fastify.inject({
      url: `/api/tenant/syncAnalytics?${qs({ tenantName: tenant.name, fromDate: startAt, toDate: finishAt })}`,
      headers: operador,
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('dashboards', () => {
  it('dashboard-report lists login failures newest first, filtered by user', async () => {
    const all = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/dashboard-report',
      headers: admin,
      payload: { start_at: startAt, finish_at: finishAt },
    });
    expect(all.statusCode).toBe(200);
    const rows = all.json<{ created_at: string; user_id: number | null }[]>();
    expect(validateResponse('dashboardReport', 200, rows)).toEqual(ok);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.created_at)).toEqual([...rows.map((r) => r.created_at)].sort().reverse());
    const userId = rows.find((r) => r.user_id !== null)?.user_id;
    expect(userId).toBeDefined();
    const one = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/dashboard-report',
      headers: operador,
      payload: { start_at: startAt, finish_at: finishAt, selectedUsers: [userId] },
    });
    expect(one.statusCode).toBe(200);
    expect(validateResponse('dashboardReport', 200, one.json())).toEqual(ok);
    expect(one.json<{ user_id: number }[]>().every((r) => r.user_id === userId)).toBe(true);
    const reversed = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/dashboard-report',
      headers: admin,
      payload: { start_at: finishAt, finish_at: '2020-01-01' },
    });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('body/finish_at');
  });

  it('summary and the daily series agree with each other and with the tables', async () => {
    const query = qs({ startAt, finishAt, tenantName: tenant.name });
    const summary = await t.app.fastify.inject({ url: `/api/dashboard/summary?${query}`, headers: operador });
    expect(summary.statusCode).toBe(200);
    const kpis = summary.json<{ orders: number; revenue: number; attendances: number; ticketsClosed: number }>();
    expect(validateResponse('dashboardSummary', 200, kpis)).toEqual(ok);
    for (const metric of ['orders', 'revenue', 'attendances', 'tickets'] as const) {
      const series = await t.app.fastify.inject({
        url: `/api/dashboard/timeseries?${query}&metric=${metric}`,
        headers: operador,
      });
      expect(series.statusCode).toBe(200);
      const body = series.json<{ points: { date: string; value: number }[] }>();
      expect(validateResponse('dashboardTimeseries', 200, body)).toEqual(ok);
      expect(body.points).toHaveLength(30);
      expect(body.points[0]?.date).toBe(startAt);
      const sum = body.points.reduce((s, p) => s + p.value, 0);
      const expected = metric === 'tickets' ? kpis.ticketsClosed : kpis[metric];
      expect(sum).toBeCloseTo(expected, 2);
    }
    const { n } = await t.db
      .selectFrom('analytics_daily')
      .select(sql<number>`sum(orders)::int`.as('n'))
      .where('tenant_id', '=', tenant.id)
      .where('day', '>=', startAt)
      .where('day', '<=', finishAt)
      .executeTakeFirstOrThrow();
    expect(kpis.orders).toBe(n);
  });

  it.each(['week', 'month'] as const)('fills every %s bucket of the range', async (interval) => {
    const response = await t.app.fastify.inject({
      url: `/api/dashboard/timeseries?${qs({ startAt, finishAt, metric: 'orders', interval })}`,
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ points: { date: string }[] }>();
    expect(validateResponse('dashboardTimeseries', 200, body)).toEqual(ok);
    expect(body.points.length).toBeGreaterThanOrEqual(interval === 'week' ? 5 : 1);
    expect(new Set(body.points.map((p) => p.date)).size).toBe(body.points.length);
  });

  it('productivity as JSON and as CSV, one record per attendant', async () => {
    const url = `/api/dashboard/productivity?${qs({ startAt, finishAt })}`;
    const json = await t.app.fastify.inject({ url, headers: operador });
    expect(json.statusCode).toBe(200);
    const rows = json.json<unknown[]>();
    expect(validateResponse('dashboardProductivity', 200, rows)).toEqual(ok);
    expect(rows.length).toBeGreaterThan(0);
    const csv = await t.app.fastify.inject({ url, headers: { ...operador, accept: 'text/csv' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(
      csv.body.startsWith(
        '\uFEFFatendente;atendimentos;primeira_resposta_media_s;duracao_media_s;tickets_fechados\r\n',
      ),
    ).toBe(true);
    const records = parseCsv(csv.body.slice(1)).slice(1);
    expect(records).toHaveLength(rows.length);
    expect(records.every((r) => /^\d+,\d{2}$/.test(r[2] ?? '') && /^\d+,\d{2}$/.test(r[3] ?? ''))).toBe(true);
  });

  it('rejects finishAt before startAt on the dashboards', async () => {
    for (const path of ['summary', 'timeseries', 'productivity']) {
      const response = await t.app.fastify.inject({
        url: `/api/dashboard/${path}?${qs({ startAt: finishAt, finishAt: '2020-01-01', metric: 'orders' })}`,
        headers: admin,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('query/finishAt');
    }
  });
});
