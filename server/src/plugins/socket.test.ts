import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { decodeServerFrame, encodeClientFrame } from '../../../src/domain/socket-codec';
import { buildApp, type App } from '../app';
import { loadConfig } from '../base/config';
import { openDatabase } from '../db/connect';
import { migrate } from '../db/migrate';
import { seedDemo } from '../tooling/seed';
import { startTestApp, type TestApp } from '../test-support/app';
import { someCustomerUser } from '../test-support/lookups';

let app: App;
let close: () => Promise<void>;
let base: string;
let token: string;
let userId: number;
let db: Awaited<ReturnType<typeof openDatabase>>['db'];

beforeAll(async () => {
  process.env.LOG_LEVEL = 'silent';
  const database = await openDatabase('pglite://memory');
  close = database.close;
  db = database.db;
  await migrate(database.db);
  await seedDemo(database.db);
  app = await buildApp({ db: database.db, config: loadConfig({ databaseUrl: 'pglite://memory' }) });
  await app.fastify.listen({ host: '127.0.0.1', port: 0 });
  base = `ws://127.0.0.1:${(app.fastify.server.address() as AddressInfo).port}/ws`;
  const login = await app.fastify.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'admin@demo.local', password: 'Back#Office!Demo', ip: null },
  });
  const body = login.json<{ access_token: string; user: { id: number } }>();
  token = body.access_token;
  userId = body.user.id;
}, 120_000);

afterAll(async () => {
  await app.fastify.close();
  await close();
});

function open(query: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base}?${query}`);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function nextFrame(ws: WebSocket): Promise<string> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(data.toString())));
}

async function admitted(ws: WebSocket, tenantName: string): Promise<void> {
  const frame = nextFrame(ws);
  ws.send(encodeClientFrame({ event: 'ping', tenantName, userId }));
  const decoded = decodeServerFrame(await frame);
  expect(decoded.ok && decoded.event.name).toBe('ping');
}

function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

describe('socket /ws', () => {
  it('answers a ping with the pong event', async () => {
    const ws = await open(`tenantName=backoffice&userId=${userId}&token=${token}`);
    const frame = nextFrame(ws);
    ws.send(encodeClientFrame({ event: 'ping', tenantName: 'backoffice', userId }));
    const decoded = decodeServerFrame(await frame);
    expect(decoded.ok && decoded.event.name).toBe('ping');
    expect(decoded.ok && decoded.event.data).toMatchObject({ message: 'pong' });
    ws.close(1000, 'Page unload');
  });

  it('closes with 4401 for a bad token and for another user id', async () => {
    const bad = await open(`tenantName=backoffice&userId=${userId}&token=nope`);
    expect(await closed(bad)).toEqual({ code: 4401, reason: 'Unauthorized' });
    const other = await open(`tenantName=backoffice&userId=${userId + 1}&token=${token}`);
    expect((await closed(other)).code).toBe(4401);
  });

  it('closes with 4403 for an unknown tenant', async () => {
    const ws = await open(`tenantName=no-such-tenant&userId=${userId}&token=${token}`);
    expect((await closed(ws)).code).toBe(4403);
  });

  it('broadcasts an event to the sockets of its tenant only', async () => {
    const mine = await open(`tenantName=farmacia-central&userId=${userId}&token=${token}`);
    const other = await open(`tenantName=backoffice&userId=${userId}&token=${token}`);
    // Admission (token and tenant checks) finishes after the upgrade; a pong proves it is done.
    await Promise.all([admitted(mine, 'farmacia-central'), admitted(other, 'backoffice')]);
    const mineFrame = nextFrame(mine);
    const otherFrame = nextFrame(other);
    app.events.publish('farmacia-central', 'GroupOfCustomersUpdated', {
      groupId: 1,
      name: 'VIP',
      change: 'created',
      customersCount: 3,
    });
    app.events.publish('backoffice', 'CampaignUpdated', {
      campaignId: 2,
      name: 'Natal',
      status: 'running',
      total: 10,
      sent: 1,
      delivered: 0,
      read: 0,
      failed: 0,
      replied: 0,
    });
    const decoded = decodeServerFrame(await mineFrame);
    expect(decoded.ok && decoded.event.name).toBe('groupOfCustomersUpdated');
    // The other tenant's first frame is its own event: the farmacia-central one never reached it.
    const theirs = decodeServerFrame(await otherFrame);
    expect(theirs.ok && theirs.event.name).toBe('campaignUpdated');
    mine.close();
    other.close();
  });

  it('sends an event for every tenant to each socket under its own tenant name', async () => {
    const central = await open(`tenantName=farmacia-central&userId=${userId}&token=${token}`);
    const office = await open(`tenantName=backoffice&userId=${userId}&token=${token}`);
    await Promise.all([admitted(central, 'farmacia-central'), admitted(office, 'backoffice')]);
    const centralFrame = nextFrame(central);
    const officeFrame = nextFrame(office);
    app.events.publishToEveryTenant('RolePermissionsChanged', { roleId: 2 });
    const [mine, theirs] = [decodeServerFrame(await centralFrame), decodeServerFrame(await officeFrame)];
    expect(mine.ok && mine.event).toMatchObject({
      name: 'rolePermissionsChanged',
      tenantName: 'farmacia-central',
      data: { roleId: 2 },
    });
    expect(theirs.ok && theirs.event).toMatchObject({
      name: 'rolePermissionsChanged',
      tenantName: 'backoffice',
      data: { roleId: 2 },
    });
    central.close();
    office.close();
  });

  it("closes a user's open sockets with 4401 when an admin blocks the user", async () => {
    const customer = await someCustomerUser(db);
    const login = await app.fastify.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: customer.email, password: 'Back#Office!Demo', ip: null },
    });
    expect(login.statusCode).toBe(200);
    const customerToken = login.json<{ access_token: string }>().access_token;
    const ws = await open(`tenantName=${customer.tenant}&userId=${customer.id}&token=${customerToken}`);
    const pong = nextFrame(ws);
    ws.send(encodeClientFrame({ event: 'ping', tenantName: customer.tenant, userId: customer.id }));
    expect(decodeServerFrame(await pong).ok).toBe(true);
    const adminSocket = await open(`tenantName=backoffice&userId=${userId}&token=${token}`);
    await admitted(adminSocket, 'backoffice');

    const wasClosed = closed(ws);
    const blocked = await app.fastify.inject({
      method: 'PATCH',
      url: `/api/users/${customer.id}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { blocked: true },
    });
    expect(blocked.statusCode).toBe(200);
    expect(await wasClosed).toEqual({ code: 4401, reason: 'Unauthorized' });
    // Only that user's sockets: the admin's stays open.
    expect(adminSocket.readyState).toBe(WebSocket.OPEN);
    adminSocket.close();
  });

  it("logout closes only the sockets opened with that session's token family", async () => {
    const second = await app.fastify.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin@demo.local', password: 'Back#Office!Demo', ip: null },
    });
    const otherToken = second.json<{ access_token: string }>().access_token;
    const mine = await open(`tenantName=backoffice&userId=${userId}&token=${otherToken}`);
    const kept = await open(`tenantName=backoffice&userId=${userId}&token=${token}`);
    await Promise.all([admitted(mine, 'backoffice'), admitted(kept, 'backoffice')]);
    const wasClosed = closed(mine);
    const logout = await app.fastify.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${otherToken}` },
      payload: { data: { email: 'admin@demo.local' }, ip: null },
    });
    expect(logout.statusCode).toBe(200);
    expect((await wasClosed).code).toBe(4401);
    expect(kept.readyState).toBe(WebSocket.OPEN);
    kept.close();
  });
});

describe('socket liveness (contracts/socket.md §5)', () => {
  let live: TestApp;

  beforeAll(async () => {
    live = await startTestApp({ config: { socketLivenessMs: 100 } });
    await live.app.fastify.listen({ host: '127.0.0.1', port: 0 });
  }, 120_000);

  afterAll(async () => {
    await live?.close();
  });

  it('terminates a connection that stops answering protocol pings, and keeps one that answers', async () => {
    const url = `ws://127.0.0.1:${(live.app.fastify.server.address() as AddressInfo).port}/ws`;
    const { authorization } = await live.auth('admin@demo.local');
    const liveToken = authorization.slice('Bearer '.length);
    const me = await live.app.fastify.inject({ method: 'GET', url: '/api/auth/userInfo', headers: { authorization } });
    const id = me.json<{ user: { id: number } }>().user.id;
    const connect = (autoPong: boolean) =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`${url}?tenantName=backoffice&userId=${id}&token=${liveToken}`, { autoPong });
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
      });
    const silent = await connect(false);
    const healthy = await connect(true);
    let pings = 0;
    healthy.on('ping', () => (pings += 1));
    // ws reports a terminated connection (no close frame) as 1006.
    expect((await closed(silent)).code).toBe(1006);
    await new Promise<void>((resolve) => {
      const check = () => (pings >= 3 ? resolve() : setTimeout(check, 20));
      check();
    });
    expect(healthy.readyState).toBe(WebSocket.OPEN);
    healthy.close();
  }, 15_000);
});
