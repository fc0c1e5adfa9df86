import { startTestApp, issuedBearer, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestUser } from '../test-support/users';
import { insertEndpoint, insertMessages } from '../test-support/webhooks';
import { saoPauloDay } from '../db/analytics';

/**
 * The `webhooks` service through REST (contracts/openapi.yaml tag `webhooks`; docs/webhooks.md): who may
 * read and resend, pages and filters, redelivery's rules and its audit. Deliveries are settled here by
 * writing their rows (the worker is server/src/webhooks/worker.test.ts). On PGlite and PostgreSQL; on
 * PostgreSQL, ten redeliveries of one delivery at once.
 */
const ok = { valid: true, errors: [] };
const qs = (query: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('webhook history and redelivery on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let staff: { authorization: string };
  let tenantAdmin: { authorization: string };
  let tenantOperator: { authorization: string };
  let otherAdmin: { authorization: string };
  let tenant: { id: number; name: string };
  let runId: number;
  let deliveryIds: number[];
  let endpoints: { active: number; paused: number; gone: number };
  const date = saoPauloDay(new Date(Date.now() - 3 * 86_400_000));

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ ...(cluster ? { databaseUrl: cluster.url } : {}), seed: { days: 1 } });
    staff = await t.auth('admin@demo.local');
    tenant = await t.db
      .selectFrom('tenants')
      .select(['id', 'name'])
      .where('name', '=', 'farmacia-central')
      .executeTakeFirstOrThrow();
    const other = await t.db
      .selectFrom('tenants')
      .select('name')
      .where('deleted_at', 'is', null)
      .where('name', 'not in', ['farmacia-central', 'backoffice'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    tenantAdmin = await issuedBearer(
      t,
      (await createTestUser(t.db, { email: 'wh.admin@demo.local', tenant: tenant.name, role: 'administrador' })).id,
    );
    // A role holding `tenants` that is not administrador: route permission alone does not open a tenant's webhooks.
    const manager = await t.db
      .insertInto('roles')
      .values({ name: 'gerente_webhooks', display_name: 'Gerente' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tenantsRoute = await t.db
      .selectFrom('permissions')
      .select('id')
      .where('route_name', '=', 'tenants')
      .executeTakeFirstOrThrow();
    await t.db.insertInto('role_permissions').values({ role_id: manager.id, permission_id: tenantsRoute.id }).execute();
    tenantOperator = await issuedBearer(
      t,
      (await createTestUser(t.db, { email: 'wh.gerente@demo.local', tenant: tenant.name, role: 'gerente_webhooks' }))
        .id,
    );
    otherAdmin = await issuedBearer(
      t,
      (await createTestUser(t.db, { email: 'wh.other@demo.local', tenant: other.name, role: 'administrador' })).id,
    );
    endpoints = {
      active: (await insertEndpoint(t.db, { tenantId: tenant.id, url: 'https://erp.example.com/a' })).id,
      paused: (await insertEndpoint(t.db, { tenantId: tenant.id, url: 'https://erp.example.com/p' })).id,
      gone: (await insertEndpoint(t.db, { tenantId: tenant.id, url: 'https://erp.example.com/g' })).id,
    };
    await insertMessages(t.db, { tenantId: tenant.id, count: 4, at: new Date(`${date}T15:00:00Z`) });
    const generated = await t.app.fastify.inject({
      url: `/api/tenant/generate-campaign-status-webhook?${qs({ tenantName: tenant.name, startAt: date, finishAt: date, type: 'delivered' })}`,
      headers: staff,
    });
    expect(generated.statusCode).toBe(200);
    runId = generated.json<{ deliveryId: number }>().deliveryId;
    // Settled as the worker would: every delivery failed with a 500 after one attempt.
    const rows = await t.db
      .updateTable('webhook_deliveries')
      .set({
        state: 'failed',
        next_attempt_at: null,
        attempts: 1,
        last_status_code: 500,
        last_error: 'http_status',
        completed_at: new Date(),
      })
      .where('run_id', '=', runId)
      .returning(['id'])
      .execute();
    deliveryIds = rows.map((r) => r.id).sort((a, b) => a - b);
    for (const id of deliveryIds)
      await t.db
        .insertInto('webhook_attempts')
        .values({
          delivery_id: id,
          number: 1,
          started_at: new Date(),
          duration_ms: 12,
          status_code: 500,
          error: 'http_status',
          response_excerpt: 'boom',
          retry_at: null,
        })
        .execute();
    await t.db.updateTable('webhook_runs').set({ finished_at: new Date() }).where('id', '=', runId).execute();
    await t.db.updateTable('webhook_endpoints').set({ active: false }).where('id', '=', endpoints.paused).execute();
    await t.db
      .updateTable('webhook_endpoints')
      .set({ deleted_at: new Date() })
      .where('id', '=', endpoints.gone)
      .execute();
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  const get = (url: string, headers = staff) => t.app.fastify.inject({ url, headers });
  const post = (url: string, headers = staff) => t.app.fastify.inject({ method: 'POST', url, headers });

  it('lists runs newest first with their counters, a page at a time', async () => {
    const more = await t.app.fastify.inject({
      url: `/api/tenant/generate-campaign-status-webhook?${qs({ tenantName: tenant.name, startAt: '2020-01-01', finishAt: '2020-01-01', type: 'delivered' })}`,
      headers: staff,
    });
    const newer = more.json<{ deliveryId: number }>().deliveryId;
    const first = await get(`/api/webhooks/runs?${qs({ tenantName: tenant.name, limit: 1 })}`);
    expect(first.statusCode).toBe(200);
    expect(validateResponse('webhookRunList', 200, first.json())).toEqual(ok);
    const page1 = first.json<{ data: { id: number }[]; next: string | null }>();
    expect(page1.data.map((r) => r.id)).toEqual([newer]);
    expect(page1.next).toBe(String(newer));
    const second = await get(`/api/webhooks/runs?${qs({ tenantName: tenant.name, limit: 1, after: page1.next! })}`);
    expect(second.json()).toMatchObject({
      data: [{ id: runId, total: 12, failed: 12, pending: 0, tenantName: tenant.name }],
    });
    expect((await get(`/api/webhooks/runs?${qs({ tenantName: tenant.name, after: 'x' })}`)).statusCode).toBe(400);
    // A tenant's administrador reads its own without naming it.
    const own = await get('/api/webhooks/runs', tenantAdmin);
    expect(own.json<{ data: { id: number }[] }>().data.map((r) => r.id)).toContain(runId);
  });

  it('refuses a tenant user holding `tenants` who is not an administrador (403) and hides other tenants (403 by name, 404 by id)', async () => {
    expect((await get('/api/webhooks/runs', tenantOperator)).statusCode).toBe(403);
    expect((await get(`/api/webhooks/runs/${String(runId)}`, tenantOperator)).statusCode).toBe(403);
    expect((await get(`/api/webhooks/runs?${qs({ tenantName: tenant.name })}`, otherAdmin)).statusCode).toBe(403);
    expect((await get(`/api/webhooks/runs/${String(runId)}`, otherAdmin)).statusCode).toBe(404);
    expect((await get(`/api/webhooks/deliveries/${String(deliveryIds[0])}`, otherAdmin)).statusCode).toBe(404);
    expect((await post(`/api/webhooks/deliveries/${String(deliveryIds[0])}/redeliver`, otherAdmin)).statusCode).toBe(
      404,
    );
    expect((await post(`/api/webhooks/runs/${String(runId)}/redeliver-failed`, otherAdmin)).statusCode).toBe(404);
    // Another tenant's run as a filter matches nothing.
    const filtered = await get(`/api/webhooks/deliveries?${qs({ runId })}`, otherAdmin);
    expect(filtered.json()).toEqual({ data: [], next: null });
    expect((await get('/api/webhooks/runs/999999')).statusCode).toBe(404);
  });

  it('lists deliveries filtered by run, endpoint, state and type, and shows one with its attempts', async () => {
    const all = await get(`/api/webhooks/deliveries?${qs({ tenantName: tenant.name, runId })}`);
    expect(validateResponse('webhookDeliveryList', 200, all.json())).toEqual(ok);
    const data = all.json<{ data: { id: number; endpoint: { id: number; deleted: boolean } }[] }>().data;
    expect(data.map((d) => d.id)).toEqual([...deliveryIds].reverse());
    const gone = await get(`/api/webhooks/deliveries?${qs({ tenantName: tenant.name, endpointId: endpoints.gone })}`);
    const goneRows = gone.json<{ data: { endpoint: { id: number; deleted: boolean } }[] }>().data;
    expect(goneRows).toHaveLength(4);
    expect(goneRows.every((d) => d.endpoint.deleted && d.endpoint.id === endpoints.gone)).toBe(true);
    const none = await get(`/api/webhooks/deliveries?${qs({ tenantName: tenant.name, runId, state: 'succeeded' })}`);
    expect(none.json()).toEqual({ data: [], next: null });
    const read = await get(`/api/webhooks/deliveries?${qs({ tenantName: tenant.name, runId, type: 'read' })}`);
    expect(read.json()).toEqual({ data: [], next: null });
    expect((await get(`/api/webhooks/deliveries?${qs({ state: 'lost' })}`)).statusCode).toBe(400);
    const one = await get(`/api/webhooks/deliveries/${String(deliveryIds[0])}`);
    expect(one.statusCode).toBe(200);
    expect(validateResponse('webhookDeliveryGet', 200, one.json())).toEqual(ok);
    expect(one.json()).toMatchObject({
      delivery: { id: deliveryIds[0], state: 'failed', last_status_code: 500 },
      attempts: [{ number: 1, status_code: 500, error: 'http_status', response_excerpt: 'boom' }],
    });
    expect(JSON.parse(one.json<{ body: string }>().body)).toMatchObject({ type: 'campaign.message.delivered' });
  });

  it('redelivers one failed delivery, refuses one in progress or to a paused or deleted endpoint, and audits it', async () => {
    const rows = await t.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'endpoint_id'])
      .where('run_id', '=', runId)
      .execute();
    const to = (endpoint: number) => rows.find((r) => r.endpoint_id === endpoint)!.id;
    const paused = await post(`/api/webhooks/deliveries/${String(to(endpoints.paused))}/redeliver`);
    expect(paused.statusCode).toBe(409);
    expect(validateResponse('webhookDeliveryRedeliver', 409, paused.json())).toEqual(ok);
    expect(paused.json()).toMatchObject({ error: 'webhook_endpoint_paused' });
    expect((await post(`/api/webhooks/deliveries/${String(to(endpoints.gone))}/redeliver`)).json()).toMatchObject({
      error: 'webhook_endpoint_deleted',
    });
    const id = to(endpoints.active);
    const again = await post(`/api/webhooks/deliveries/${String(id)}/redeliver`, tenantAdmin);
    expect(again.statusCode).toBe(200);
    expect(validateResponse('webhookDeliveryRedeliver', 200, again.json())).toEqual(ok);
    expect(again.json()).toMatchObject({ id, state: 'pending', attempts: 1, completed_at: null });
    const run = await get(`/api/webhooks/runs/${String(runId)}`);
    expect(run.json()).toMatchObject({ pending: 1, finished_at: null });
    const twice = await post(`/api/webhooks/deliveries/${String(id)}/redeliver`);
    expect(twice.json()).toMatchObject({ error: 'webhook_delivery_in_progress' });
    const record = await t.db
      .selectFrom('audit_log')
      .select(['operation', 'target_type', 'target_id', 'tenant_id'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(record).toEqual({
      operation: 'webhook.redeliver',
      target_type: 'webhook_run',
      target_id: runId,
      tenant_id: tenant.id,
    });
  });

  it("redelivers a run's failed deliveries but those to paused or deleted endpoints", async () => {
    const result = await post(`/api/webhooks/runs/${String(runId)}/redeliver-failed`);
    expect(result.statusCode).toBe(200);
    expect(validateResponse('webhookRunRedeliverFailed', 200, result.json())).toEqual(ok);
    // Four to the active endpoint, one of them already queued by the test before: three queued now.
    expect(result.json()).toEqual({ requeued: 3, skipped: 8 });
    const states = await t.db
      .selectFrom('webhook_deliveries')
      .select(['endpoint_id', 'state'])
      .where('run_id', '=', runId)
      .execute();
    expect(states.filter((d) => d.endpoint_id === endpoints.active).every((d) => d.state === 'pending')).toBe(true);
    expect(states.filter((d) => d.endpoint_id !== endpoints.active).every((d) => d.state === 'failed')).toBe(true);
    expect((await post(`/api/webhooks/runs/${String(runId)}/redeliver-failed`)).json()).toEqual({
      requeued: 0,
      skipped: 8,
    });
  });

  if (postgres)
    describe('on PostgreSQL', () => {
      it('of ten redeliveries of one delivery at once, exactly one queues it; the rest answer 409', async () => {
        const [row] = await t.db
          .updateTable('webhook_deliveries')
          .set({ state: 'failed', next_attempt_at: null, completed_at: new Date() })
          .where('run_id', '=', runId)
          .where('endpoint_id', '=', endpoints.active)
          .returning('id')
          .execute();
        const answers = await Promise.all(
          Array.from({ length: 10 }, () => post(`/api/webhooks/deliveries/${String(row!.id)}/redeliver`)),
        );
        const codes = answers.map((a) => a.statusCode).sort();
        expect(codes).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
        for (const a of answers.filter((x) => x.statusCode === 409))
          expect(a.json()).toMatchObject({ error: 'webhook_delivery_in_progress' });
      });
    });
});
