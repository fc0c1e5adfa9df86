import type { PanelEvent } from '../base/events';
import { startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';

let t: TestApp;
let admin: { authorization: string };
let operador: { authorization: string };
let tenant: { id: number; name: string };

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.auth('admin@demo.local');
  operador = await t.auth('operador@demo.local');
  tenant = await t.db
    .selectFrom('tenants as t')
    .select(['t.id', 't.name'])
    .where('t.deleted_at', 'is', null)
    .where((eb) => eb.exists(eb.selectFrom('instances as i').select('i.id').whereRef('i.tenant_id', '=', 't.id')))
    .where((eb) => eb.exists(eb.selectFrom('connections as c').select('c.id').whereRef('c.tenant_id', '=', 't.id')))
    .orderBy('t.id')
    .executeTakeFirstOrThrow();
}, 180_000);

afterAll(async () => t.close());

const ok = { valid: true, errors: [] };

function collect(): { events: PanelEvent[]; stop: () => void } {
  const events: PanelEvent[] = [];
  const stop = t.app.events.subscribe((event) => {
    if (event.event === 'InstanceUpdated') events.push(event);
  });
  return { events, stop };
}

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('instances', () => {
  it('lists a tenant instances and connections as the contract says', async () => {
    const list = await t.app.fastify.inject({ url: `/api/instance?tenantName=${tenant.name}`, headers: admin });
    expect(list.statusCode).toBe(200);
    expect(validateResponse('instanceList', 200, list.json())).toEqual(ok);
    expect(list.json<unknown[]>().length).toBeGreaterThan(0);
    const connections = await t.app.fastify.inject({
      url: `/api/connection?tenantName=${tenant.name}`,
      headers: admin,
    });
    expect(connections.statusCode).toBe(200);
    expect(validateResponse('connectionList', 200, connections.json())).toEqual(ok);
    expect(connections.json<{ tenantName: string }[]>().every((c) => c.tenantName === tenant.name)).toBe(true);
  });

  it('creates (201, event) and refuses a duplicate name in the tenant (409)', async () => {
    const { events, stop } = collect();
    const payload = { name: 'Loja Teste', tenantName: tenant.name, isOfficial: true, isUnlimited: false };
    const created = await t.app.fastify.inject({ method: 'POST', url: '/api/instance', headers: admin, payload });
    stop();
    expect(created.statusCode).toBe(201);
    expect(validateResponse('instanceCreate', 201, created.json())).toEqual(ok);
    expect(created.json()).toMatchObject({
      name: 'Loja Teste',
      tenantName: tenant.name,
      status: 'idle',
      totalMessages: null,
    });
    expect(events.map((e) => e.tenantName)).toEqual([tenant.name]);
    const duplicate = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/instance',
      headers: admin,
      payload: { ...payload, name: 'loja teste' },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(validateResponse('instanceCreate', 409, duplicate.json())).toEqual(ok);
  });

  it('updates and publishes InstanceUpdated; another tenant instance is 404', async () => {
    const [first] = await t.db
      .selectFrom('instances')
      .select('id')
      .where('tenant_id', '=', tenant.id)
      .orderBy('id')
      .execute();
    const { events, stop } = collect();
    const payload = { id: first?.id, tenantName: tenant.name, activated: false };
    const updated = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/instance/update',
      headers: admin,
      payload,
    });
    stop();
    expect(updated.statusCode).toBe(200);
    expect(validateResponse('instanceUpdate', 200, updated.json())).toEqual(ok);
    expect(updated.json()).toMatchObject({ id: first?.id, activated: false });
    expect(events).toHaveLength(1);
    expect(validateResponse('instanceUpdate', 200, events[0]?.data)).toEqual(ok);
    const other = await t.db
      .selectFrom('instances')
      .select('id')
      .where('tenant_id', '!=', tenant.id)
      .executeTakeFirstOrThrow();
    const foreign = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/instance/update',
      headers: admin,
      payload: { ...payload, id: other.id },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('syncs messages in the background: 202, InstanceUpdated events ending in done, logs, real counts', async () => {
    const instance = await t.db
      .selectFrom('instances')
      .select('id')
      .where('tenant_id', '=', tenant.id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const { count } = await t.db
      .selectFrom('attendances')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('tenant_id', '=', tenant.id)
      .where('started_at', '>=', new Date(Date.now() - 30 * 86_400_000))
      .executeTakeFirstOrThrow();
    const before = new Date();
    const { events, stop } = collect();
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/instance/syncMessages',
      headers: admin,
      payload: { id: instance.id, daysAgo: 30, tenantName: tenant.name, unlimitedSync: false },
    });
    expect(response.statusCode).toBe(202);
    expect(validateResponse('instanceSyncMessages', 202, response.json())).toEqual(ok);
    expect(response.json()).toMatchObject({ status: 'syncing', syncProgress: 0, totalMessages: Number(count) });
    await until(() => events.some((e) => 'status' in e.data && e.data.status !== 'syncing'));
    stop();
    const statuses = events.map((e) => ('status' in e.data ? e.data.status : null));
    expect(statuses[0]).toBe('syncing');
    expect(statuses.at(-1)).toBe('done');
    for (const event of events) expect(validateResponse('instanceSyncMessages', 202, event.data)).toEqual(ok);
    expect(events.at(-1)?.data).toMatchObject({
      id: instance.id,
      syncProgress: 100,
      syncedMessages: Number(count),
      totalMessages: Number(count),
    });
    const logs = await t.db
      .selectFrom('instance_logs')
      .select('event')
      .where('instance_id', '=', instance.id)
      .where('event', 'in', ['sync_started', 'sync_finished'])
      .where('created_at', '>=', before)
      .execute();
    expect(logs.map((l) => l.event).sort()).toEqual(['sync_finished', 'sync_started']);
    const row = await t.db
      .selectFrom('instances')
      .select(['status', 'synced_messages'])
      .where('id', '=', instance.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'done', synced_messages: Number(count) });
  });

  it('answers 409 while a sync runs and 400 without daysAgo unless unlimited', async () => {
    const instance = await t.db
      .selectFrom('instances')
      .select('id')
      .where('tenant_id', '=', tenant.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const payload = { id: instance.id, daysAgo: null, tenantName: tenant.name, unlimitedSync: false };
    const missing = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/instance/syncMessages',
      headers: admin,
      payload,
    });
    expect(missing.statusCode).toBe(400);
    await t.db.updateTable('instances').set({ status: 'syncing' }).where('id', '=', instance.id).execute();
    const busy = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/instance/syncMessages',
      headers: admin,
      payload: { ...payload, unlimitedSync: true },
    });
    expect(busy.statusCode).toBe(409);
    expect(validateResponse('instanceSyncMessages', 409, busy.json())).toEqual(ok);
    await t.db.updateTable('instances').set({ status: 'idle' }).where('id', '=', instance.id).execute();
  });

  it('gives operador 403 on instances and connections', async () => {
    for (const url of [`/api/instance?tenantName=${tenant.name}`, `/api/connection?tenantName=${tenant.name}`]) {
      const response = await t.app.fastify.inject({ url, headers: operador });
      expect(response.statusCode).toBe(403);
      expect(validateResponse('instanceList', 403, response.json())).toEqual(ok);
    }
  });
});
