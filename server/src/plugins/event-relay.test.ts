import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { WebSocket } from 'ws';
import { decodeServerFrame } from '../../../src/domain/socket-codec';
import { buildApp, type App } from '../app';
import { loadConfig } from '../base/config';
import { openDatabase, type OpenDatabase } from '../db/connect';
import { DEMO_PASSWORD, seedDemo } from '../tooling/seed';
import { openTestDatabase } from '../test-support/database';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { scopedChannel } from './event-relay';
import { roleId, someCustomerUser, tenantId } from '../test-support/lookups';
import { admitted, closedWith, openSocket, socketQuery, socketTicket } from '../test-support/socket-client';

/**
 * Two apps in this process on ONE PostgreSQL schema, each with its own pool and LISTEN connection:
 * what one publishes or revokes must reach the other's sockets, exactly once, and nothing else.
 * (The two-process version of the acceptance test is server/src/cluster.test.ts.)
 */
let server: ThrowawayPostgres;
let primary: OpenDatabase & { url: string };
let secondary: OpenDatabase;
let a: App;
let b: App;
let baseA: string;
let baseB: string;
let admin: { id: number; token: string };
let central: { id: number; name: string };

async function login(app: App, email: string): Promise<{ id: number; token: string }> {
  const response = await app.fastify.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: DEMO_PASSWORD, ip: null },
  });
  const body = response.json<{ access_token: string; user: { id: number } }>();
  return { id: body.user.id, token: body.access_token };
}

/** A socket on `base` for the session, with a ticket asked of app A (one database: any process redeems it). */
async function open(base: string, tenantName: string, session: { id: number; token: string }): Promise<WebSocket> {
  const ticket = await socketTicket(a, `Bearer ${session.token}`);
  return openSocket(base, socketQuery(tenantName, session.id, ticket));
}

/** Collects decoded event names as they arrive. */
function record(ws: WebSocket): string[] {
  const names: string[] = [];
  ws.on('message', (raw) => {
    const decoded = decodeServerFrame(raw.toString());
    if (decoded.ok) names.push(decoded.event.name);
  });
  return names;
}

async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  process.env.LOG_LEVEL = 'silent';
  server = await startThrowawayPostgres();
  primary = await openTestDatabase(server.url);
  await seedDemo(primary.db);
  secondary = await openDatabase(primary.url);
  const config = loadConfig({ databaseUrl: primary.url });
  a = await buildApp({ db: primary.db, config, pg: primary.pg });
  b = await buildApp({ db: secondary.db, config, pg: secondary.pg });
  await Promise.all([a.relay?.ready(), b.relay?.ready()]);
  await a.fastify.listen({ host: '127.0.0.1', port: 0 });
  await b.fastify.listen({ host: '127.0.0.1', port: 0 });
  baseA = `ws://127.0.0.1:${(a.fastify.server.address() as AddressInfo).port}/ws`;
  baseB = `ws://127.0.0.1:${(b.fastify.server.address() as AddressInfo).port}/ws`;
  admin = await login(a, 'admin@demo.local');
  central = { id: await tenantId(primary.db, 'farmacia-central'), name: 'farmacia-central' };
}, 120_000);

afterAll(async () => {
  await b?.fastify.close();
  await a?.fastify.close();
  await secondary?.close();
  await primary?.close();
  await server?.stop();
});

describe('LISTEN/NOTIFY relay between two apps on one database', () => {
  it('listens on channels scoped to the schema, so other schemas on the cluster stay apart', () => {
    const schema = new URL(primary.url).searchParams.get('options')?.match(/search_path=([^,]+)/)?.[1] ?? '';
    expect(schema).toMatch(/^test_/);
    expect(a.relay?.channels).toEqual({ events: `panel_events_${schema}`, revocations: `panel_revocations_${schema}` });
    expect(scopedChannel('panel_events', 'public')).toBe('panel_events');
  });

  it('delivers an event published on A to a socket on B exactly once, and only to that tenant', async () => {
    const mine = await open(baseB, 'farmacia-central', admin);
    const other = await open(baseB, 'backoffice', admin);
    await Promise.all([admitted(mine, 'farmacia-central', admin.id), admitted(other, 'backoffice', admin.id)]);
    const got = record(mine);
    const otherGot = record(other);
    a.events.publish(central, 'GroupOfCustomersUpdated', {
      groupId: 7,
      name: 'VIP',
      change: 'created',
      customersCount: 2,
    });
    await until(() => got.length === 1, 'the relayed event');
    // Give a duplicate (an own-origin echo, a second delivery) time to show up before asserting none came.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(got).toEqual(['groupOfCustomersUpdated']);
    expect(otherGot).toEqual([]);
    mine.close();
    other.close();
  });

  function pickOperation(data: unknown) {
    const { operation, targetType, targetId } = data as { operation: string; targetType: string; targetId: number };
    return { operation, targetType, targetId };
  }

  it("a role's permissions changed on A reach B's sockets of every tenant, each under its own tenant's name", async () => {
    const central = await open(baseB, 'farmacia-central', admin);
    const office = await open(baseB, 'backoffice', admin);
    await Promise.all([admitted(central, 'farmacia-central', admin.id), admitted(office, 'backoffice', admin.id)]);
    const frames: { ws: string; name: string; tenantName: string; data: unknown }[] = [];
    for (const [label, ws] of [
      ['central', central],
      ['office', office],
    ] as const) {
      ws.on('message', (raw) => {
        const decoded = decodeServerFrame(raw.toString());
        if (decoded.ok)
          frames.push({
            ws: label,
            name: decoded.event.name,
            tenantName: decoded.event.tenantName,
            data: decoded.event.data,
          });
      });
    }
    const role = await primary.db
      .selectFrom('roles')
      .select('id')
      .where('name', '=', 'operador')
      .executeTakeFirstOrThrow();
    const update = await a.fastify.inject({
      method: 'POST',
      url: '/api/permission/update',
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { roleId: role.id, permissions: ['dashboard-analytics'] },
    });
    expect(update.statusCode, update.body).toBe(200);
    // The change's audit record (roles belong to no tenant) is announced to the actor's tenant only.
    await until(() => frames.length === 3, 'the relayed permission change on both sockets, and its audit record');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      frames
        .map((f) => (f.name === 'auditRecorded' ? { ...f, data: pickOperation(f.data) } : f))
        .sort((x, y) => x.ws.localeCompare(y.ws) || x.name.localeCompare(y.name)),
    ).toEqual([
      { ws: 'central', name: 'rolePermissionsChanged', tenantName: 'farmacia-central', data: { roleId: role.id } },
      {
        ws: 'office',
        name: 'auditRecorded',
        tenantName: 'backoffice',
        data: { operation: 'role.permissions', targetType: 'role', targetId: role.id },
      },
      { ws: 'office', name: 'rolePermissionsChanged', tenantName: 'backoffice', data: { roleId: role.id } },
    ]);
    central.close();
    office.close();
  });

  it("does not echo B's own events back to B's sockets", async () => {
    const ws = await open(baseB, 'farmacia-central', admin);
    await admitted(ws, 'farmacia-central', admin.id);
    const got = record(ws);
    b.events.publish(central, 'CustomerBlacklisted', {
      customerId: 1,
      phone: '+5511987654321',
      instanceId: null,
      blacklisted: true,
      byUserId: null,
      reason: null,
    });
    await until(() => got.length === 1, 'the local event');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(got).toEqual(['customerBlacklisted']);
    ws.close();
  });

  it('closes sockets on B when A logs the session out (family revocation crosses processes)', async () => {
    const session = await login(a, 'admin@demo.local');
    const ws = await open(baseB, 'backoffice', session);
    await admitted(ws, 'backoffice', session.id);
    const code = closedWith(ws);
    const logout = await a.fastify.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${session.token}` },
      payload: { data: { email: 'admin@demo.local' }, ip: null },
    });
    expect(logout.statusCode).toBe(200);
    expect((await code).code).toBe(4401);
  });

  it('closes sockets on B when an admin on A blocks the user (user revocation crosses processes)', async () => {
    const target = await someCustomerUser(primary.db);
    const user = await login(b, target.email);
    const ws = await open(baseB, target.tenant, user);
    await admitted(ws, target.tenant, user.id);
    const code = closedWith(ws);
    const blocked = await a.fastify.inject({
      method: 'PATCH',
      url: `/api/users/${target.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { blocked: true },
    });
    expect(blocked.statusCode).toBe(200);
    expect((await code).code).toBe(4401);
  });

  it('a ticket opens one socket whatever the process: two connections racing with it on A and B, one is admitted', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 10; round += 1) {
      const ticket = await socketTicket(a, `Bearer ${admin.token}`);
      const query = socketQuery('backoffice', admin.id, ticket);
      const sockets = await Promise.all([openSocket(baseA, query), openSocket(baseB, query)]);
      const results = await Promise.all(
        sockets.map((ws) =>
          admitted(ws, 'backoffice', admin.id).then(
            () => 'admitted',
            (error: Error) => error.message,
          ),
        ),
      );
      outcomes.push(results.sort().join(' + '));
      for (const ws of sockets) ws.close();
    }
    expect(outcomes).toEqual(Array.from({ length: 10 }, () => 'admitted + closed 4401 Unauthorized before admission'));
  });

  async function newTenant(name: string): Promise<{ id: number; name: string }> {
    const created = await a.fastify.inject({
      method: 'POST',
      url: '/api/tenant',
      headers: { authorization: `Bearer ${admin.token}` },
      payload: {
        name,
        cnpj: '11.222.333/0001-81',
        features: ['chat'],
        template: 'pharmacy',
        pool: 'pool-a',
        userLimit: 5,
        plan: 'starter',
        ticketLimit: 100,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json();
  }

  it('a tenant deleted on A closes its sockets on B for good (4403); renamed on A, with 4000; others stay', async () => {
    const [gone, renamed] = [await newTenant('apagar-no-a'), await newTenant('renomear-no-a')];
    const home = await open(baseB, 'backoffice', admin);
    const goneSocket = await open(baseB, gone.name, admin);
    const renamedSocket = await open(baseB, renamed.name, admin);
    await Promise.all([
      admitted(home, 'backoffice', admin.id),
      admitted(goneSocket, gone.name, admin.id),
      admitted(renamedSocket, renamed.name, admin.id),
    ]);
    const [goneClosed, renamedClosed] = [closedWith(goneSocket), closedWith(renamedSocket)];
    const deleted = await a.fastify.inject({
      method: 'POST',
      url: '/api/tenant/delete',
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { id: gone.id },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await goneClosed).toEqual({ code: 4403, reason: 'Tenant deleted' });
    const update = await a.fastify.inject({
      method: 'POST',
      url: '/api/tenant/update',
      headers: { authorization: `Bearer ${admin.token}` },
      payload: {
        id: renamed.id,
        name: 'renomeada-no-a',
        cnpj: '11.222.333/0001-81',
        template: 'pharmacy',
        pool: 'pool-a',
      },
    });
    expect(update.statusCode, update.body).toBe(200);
    expect(await renamedClosed).toEqual({ code: 4000, reason: 'Tenant renamed' });
    expect(home.readyState).toBe(WebSocket.OPEN);
    home.close();
  });

  it("a role change on A closes that user's socket on B with 4000; the reconnect is admitted", async () => {
    const target = await someCustomerUser(primary.db);
    const user = await login(a, target.email);
    const row = await primary.db
      .selectFrom('users')
      .select(['username', 'name', 'email', 'role_id'])
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    const [adminRole, operadorRole] = [await roleId(primary.db, 'administrador'), await roleId(primary.db, 'operador')];
    const put = (role: number) =>
      a.fastify.inject({
        method: 'PUT',
        url: `/api/users/${target.id}`,
        headers: { authorization: `Bearer ${admin.token}` },
        payload: { username: row.username, name: row.name, email: row.email, role_id: role },
      });
    const ws = await open(baseB, target.tenant, user);
    const watching = await open(baseB, target.tenant, admin);
    await Promise.all([admitted(ws, target.tenant, user.id), admitted(watching, target.tenant, admin.id)]);
    const closed = closedWith(ws);
    try {
      expect((await put(row.role_id === adminRole ? operadorRole : adminRole)).statusCode).toBe(200);
      expect(await closed).toEqual({ code: 4000, reason: 'Role changed' });
      expect(watching.readyState).toBe(WebSocket.OPEN);
      const again = await open(baseB, target.tenant, user);
      await admitted(again, target.tenant, user.id);
      again.close();
    } finally {
      expect((await put(row.role_id)).statusCode).toBe(200);
    }
    watching.close();
  });

  it('an audit record written on A reaches an administrador on B and not an operador on B', async () => {
    const operador = await login(a, 'operador@demo.local');
    const adminSocket = await open(baseB, 'backoffice', admin);
    const operadorSocket = await open(baseB, 'backoffice', operador);
    await Promise.all([
      admitted(adminSocket, 'backoffice', admin.id),
      admitted(operadorSocket, 'backoffice', operador.id),
    ]);
    const adminGot = record(adminSocket);
    const operadorGot = record(operadorSocket);
    // A sign-in on A is recorded (session.sign-in) in the back-office tenant.
    await login(a, 'admin@demo.local');
    await until(() => adminGot.includes('auditRecorded'), 'the record on B');
    // B sent it to the administrador; a marker B sends now reaches the operador after it, had it been sent.
    b.events.publish({ id: await tenantId(primary.db, 'backoffice'), name: 'backoffice' }, 'GroupOfCustomersUpdated', {
      groupId: 3,
      name: 'Marcador',
      change: 'created',
      customersCount: 0,
    });
    await until(() => operadorGot.includes('groupOfCustomersUpdated'), 'the marker on the operador');
    expect(operadorGot).toEqual(['groupOfCustomersUpdated']);
    adminSocket.close();
    operadorSocket.close();
  });

  it('drops malformed revocation notifications and keeps closing on valid ones', async () => {
    const session = await login(a, 'admin@demo.local');
    const ws = await open(baseB, 'backoffice', session);
    await admitted(ws, 'backoffice', session.id);
    const code = closedWith(ws);
    const channel = b.relay?.channels.revocations ?? '';
    const raw = new pg.Client({ connectionString: primary.url });
    await raw.connect();
    try {
      for (const payload of [
        'not json',
        JSON.stringify({ userId: session.id }), // no origin
        JSON.stringify({ userId: -1, origin: 'x' }),
        JSON.stringify({ userId: session.id, reason: 'something', origin: 'x' }),
        JSON.stringify({ tenantId: 1, reason: 'vanished', origin: 'x' }),
        JSON.stringify({ familyId: '', origin: 'x' }),
      ]) {
        await raw.query('select pg_notify($1, $2)', [channel, payload]);
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(ws.readyState).toBe(WebSocket.OPEN);
      const familyId = (
        JSON.parse(Buffer.from(session.token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { fam: string }
      ).fam;
      await raw.query('select pg_notify($1, $2)', [channel, JSON.stringify({ familyId, origin: 'another-process' })]);
    } finally {
      await raw.end();
    }
    expect((await code).code).toBe(4401);
  });

  it('drops malformed notifications and keeps relaying', async () => {
    const ws = await open(baseB, 'farmacia-central', admin);
    await admitted(ws, 'farmacia-central', admin.id);
    const got = record(ws);
    const channel = b.relay?.channels.events ?? '';
    const raw = new pg.Client({ connectionString: primary.url });
    await raw.connect();
    try {
      for (const payload of [
        'not json',
        '[]',
        JSON.stringify({ event: 'NoSuchEvent', data: {}, tenantName: 'farmacia-central', sentAt: 'x', origin: 'x' }),
        JSON.stringify({ event: 'ping', data: {}, tenantName: 'farmacia-central', sentAt: 'x', origin: 'x' }),
      ]) {
        await raw.query('select pg_notify($1, $2)', [channel, payload]);
      }
    } finally {
      await raw.end();
    }
    a.events.publish(central, 'GroupOfCustomersUpdated', {
      groupId: 8,
      name: 'Novos',
      change: 'updated',
      customersCount: 5,
    });
    await until(() => got.length >= 1, 'the valid event after the malformed ones');
    expect(got).toEqual(['groupOfCustomersUpdated']);
    ws.close();
  });

  it('re-establishes a killed LISTEN connection and relays again', async () => {
    const relay = b.relay;
    if (!relay) throw new Error('B was built without a relay');
    const killer = new pg.Client({ connectionString: primary.url });
    await killer.connect();
    try {
      const { rowCount } = await killer.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN%' and pid <> pg_backend_pid() and query like $1`,
        [`%${relay.channels.events}%`],
      );
      expect(rowCount).toBe(2); // A's and B's listeners
    } finally {
      await killer.end();
    }
    await until(() => !relay.listening, 'the listener to notice it was killed');
    await relay.ready();
    const ws = await open(baseB, 'farmacia-central', admin);
    await admitted(ws, 'farmacia-central', admin.id);
    const got = record(ws);
    a.events.publish(central, 'GroupOfCustomersUpdated', {
      groupId: 9,
      name: 'Depois',
      change: 'created',
      customersCount: 1,
    });
    await until(() => got.length === 1, 'an event after the reconnect');
    ws.close();
  });
});
