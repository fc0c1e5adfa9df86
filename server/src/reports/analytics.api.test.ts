import { sql } from 'kysely';
import { saoPauloDay } from '../db/analytics';
import { startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { parseCsv } from '../test-support/csv';
import { insertEndpoint, insertMessages } from '../test-support/webhooks';

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

  it('answers 409 webhook_no_endpoint and writes nothing when no active endpoint receives the type', async () => {
    const runs = async () =>
      Number(
        (
          await t.db
            .selectFrom('webhook_runs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await runs();
    // A paused endpoint, and an active one for another type, receive nothing of `read`.
    await insertEndpoint(t.db, {
      tenantId: tenant.id,
      url: 'https://erp.example.com/a',
      types: ['read'],
      active: false,
    });
    await insertEndpoint(t.db, { tenantId: tenant.id, url: 'https://erp.example.com/b', types: ['sent'] });
    const response = await t.app.fastify.inject({
      url: `/api/tenant/generate-campaign-status-webhook?${qs({ tenantName: tenant.name, startAt, finishAt, type: 'read' })}`,
      headers: admin,
    });
    expect(response.statusCode).toBe(409);
    expect(validateResponse('tenantGenerateCampaignStatusWebhook', 409, response.json())).toEqual(ok);
    expect(response.json()).toMatchObject({ error: 'webhook_no_endpoint' });
    expect(await runs()).toBe(before);
  });

  it('queues one delivery per campaign message that reached the type in the range, per active endpoint', async () => {
    const endpoints = [
      await insertEndpoint(t.db, { tenantId: tenant.id, url: 'https://erp.example.com/c', types: ['delivered'] }),
      await insertEndpoint(t.db, {
        tenantId: tenant.id,
        url: 'https://erp.example.com/d',
        types: ['delivered', 'read'],
      }),
    ];
    // Inside the range (its first and last São Paulo day), and just outside it.
    const inside = [
      ...(await insertMessages(t.db, { tenantId: tenant.id, count: 2, at: new Date(`${startAt}T03:00:00Z`) })),
      ...(await insertMessages(t.db, { tenantId: tenant.id, count: 1, at: new Date(`${finishAt}T23:59:00-03:00`) })),
    ];
    await insertMessages(t.db, { tenantId: tenant.id, count: 1, at: new Date(`${startAt}T02:59:59Z`) });
    await insertMessages(t.db, { tenantId: tenant.id, count: 1, at: new Date(`${startAt}T12:00:00Z`), status: 'read' });
    const expected = await t.db
      .selectFrom('campaign_message_statuses')
      .select('message_id')
      .where('tenant_id', '=', tenant.id)
      .where('status', '=', 'delivered')
      .where('at', '>=', new Date(`${startAt}T03:00:00Z`))
      .execute();
    expect(expected.map((r) => r.message_id)).toEqual(expect.arrayContaining(inside));
    const response = await t.app.fastify.inject({
      url: `/api/tenant/generate-campaign-status-webhook?${qs({ tenantName: tenant.name, startAt, finishAt, type: 'delivered' })}`,
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ deliveries: number; deliveryId: number }>();
    expect(validateResponse('tenantGenerateCampaignStatusWebhook', 200, body)).toEqual(ok);
    expect(body.deliveries).toBe(expected.length * endpoints.length);
    const run = await t.db
      .selectFrom('webhook_runs')
      .selectAll()
      .where('id', '=', body.deliveryId)
      .executeTakeFirstOrThrow();
    expect(run).toMatchObject({ tenant_id: tenant.id, type: 'delivered', start_at: startAt, finish_at: finishAt });
    expect(run.total).toBe(body.deliveries);
    expect(run.finished_at).toBeNull();
    const deliveries = await t.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('run_id', '=', body.deliveryId)
      .execute();
    expect(deliveries).toHaveLength(body.deliveries);
    expect(new Set(deliveries.map((d) => d.idempotency_key)).size).toBe(deliveries.length);
    expect(new Set(deliveries.map((d) => `${d.message_id}:${d.endpoint_id}`)).size).toBe(deliveries.length);
    for (const d of deliveries) {
      expect(d).toMatchObject({ state: 'pending', attempts: 0, type: 'delivered', completed_at: null });
      const json = JSON.parse(d.body) as { id: string; data: { message_id: number; status_at: string } };
      expect(json.id).toBe(d.idempotency_key);
      expect(json.data.message_id).toBe(d.message_id);
      expect(json.data.status_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    const record = await t.db
      .selectFrom('audit_log')
      .select(['target_type', 'target_id', 'tenant_id'])
      .where('operation', '=', 'webhook.generate')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ target_type: 'webhook_run', target_id: body.deliveryId, tenant_id: tenant.id });
  });

  it('finishes a run without messages at once', async () => {
    const response = await t.app.fastify.inject({
      url: `/api/tenant/generate-campaign-status-webhook?${qs({ tenantName: tenant.name, startAt: '2020-01-01', finishAt: '2020-01-02', type: 'delivered' })}`,
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ deliveries: number; deliveryId: number }>();
    expect(body.deliveries).toBe(0);
    const run = await t.db
      .selectFrom('webhook_runs')
      .selectAll()
      .where('id', '=', body.deliveryId)
      .executeTakeFirstOrThrow();
    expect(run.finished_at).not.toBeNull();
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
