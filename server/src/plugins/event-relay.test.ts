import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { WebSocket } from 'ws';
import { decodeServerFrame, encodeClientFrame } from '../../../src/domain/socket-codec';
import { buildApp, type App } from '../app';
import { loadConfig } from '../base/config';
import { openDatabase, type OpenDatabase } from '../db/connect';
import { DEMO_PASSWORD, seedDemo } from '../tooling/seed';
import { openTestDatabase } from '../test-support/database';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { scopedChannel } from './event-relay';
import { someCustomerUser } from '../test-support/lookups';

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
let baseB: string;
let admin: { id: number; token: string };

async function login(app: App, email: string): Promise<{ id: number; token: string }> {
  const response = await app.fastify.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: DEMO_PASSWORD, ip: null },
  });
  const body = response.json<{ access_token: string; user: { id: number } }>();
  return { id: body.user.id, token: body.access_token };
}

function open(base: string, query: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base}?${query}`);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
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

async function admitted(ws: WebSocket, tenantName: string, userId: number): Promise<void> {
  const pong = new Promise<void>((resolve) => ws.once('message', () => resolve()));
  ws.send(encodeClientFrame({ event: 'ping', tenantName, userId }));
  await pong;
}

async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const closedWith = (ws: WebSocket) => new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));

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
  await b.fastify.listen({ host: '127.0.0.1', port: 0 });
  baseB = `ws://127.0.0.1:${(b.fastify.server.address() as AddressInfo).port}/ws`;
  admin = await login(a, 'admin@demo.local');
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
    const mine = await open(baseB, `tenantName=farmacia-central&userId=${admin.id}&token=${admin.token}`);
    const other = await open(baseB, `tenantName=backoffice&userId=${admin.id}&token=${admin.token}`);
    await Promise.all([admitted(mine, 'farmacia-central', admin.id), admitted(other, 'backoffice', admin.id)]);
    const got = record(mine);
    const otherGot = record(other);
    a.events.publish('farmacia-central', 'GroupOfCustomersUpdated', {
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
    const central = await open(baseB, `tenantName=farmacia-central&userId=${admin.id}&token=${admin.token}`);
    const office = await open(baseB, `tenantName=backoffice&userId=${admin.id}&token=${admin.token}`);
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
    const ws = await open(baseB, `tenantName=farmacia-central&userId=${admin.id}&token=${admin.token}`);
    await admitted(ws, 'farmacia-central', admin.id);
    const got = record(ws);
    b.events.publish('farmacia-central', 'CustomerBlacklisted', {
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
    const ws = await open(baseB, `tenantName=backoffice&userId=${session.id}&token=${session.token}`);
    await admitted(ws, 'backoffice', session.id);
    const code = closedWith(ws);
    const logout = await a.fastify.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${session.token}` },
      payload: { data: { email: 'admin@demo.local' }, ip: null },
    });
    expect(logout.statusCode).toBe(200);
    expect(await code).toBe(4401);
  });

  it('closes sockets on B when an admin on A blocks the user (user revocation crosses processes)', async () => {
    const target = await someCustomerUser(primary.db);
    const user = await login(b, target.email);
    const ws = await open(baseB, `tenantName=${target.tenant}&userId=${user.id}&token=${user.token}`);
    await admitted(ws, target.tenant, user.id);
    const code = closedWith(ws);
    const blocked = await a.fastify.inject({
      method: 'PATCH',
      url: `/api/users/${target.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { blocked: true },
    });
    expect(blocked.statusCode).toBe(200);
    expect(await code).toBe(4401);
  });

  it('drops malformed notifications and keeps relaying', async () => {
    const ws = await open(baseB, `tenantName=farmacia-central&userId=${admin.id}&token=${admin.token}`);
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
    a.events.publish('farmacia-central', 'GroupOfCustomersUpdated', {
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
        `select pg_terminate_backend(pid) from pg_stat_activity where query like 'LISTEN%' and pid <> pg_backend_pid() and query like $1`,
        [`%${relay.channels.events}%`],
      );
      expect(rowCount).toBe(2); // A's and B's listeners
    } finally {
      await killer.end();
    }
    await until(() => !relay.listening, 'the listener to notice it was killed');
    await relay.ready();
    const ws = await open(baseB, `tenantName=farmacia-central&userId=${admin.id}&token=${admin.token}`);
    await admitted(ws, 'farmacia-central', admin.id);
    const got = record(ws);
    a.events.publish('farmacia-central', 'GroupOfCustomersUpdated', {
      groupId: 9,
      name: 'Depois',
      change: 'created',
      customersCount: 1,
    });
    await until(() => got.length === 1, 'an event after the reconnect');
    ws.close();
  });
});
