import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { decodeServerFrame, encodeClientFrame } from '../../../src/api/socket-codec';
import { buildApp, type App } from '../app';
import { loadConfig } from '../config';
import { openDatabase } from '../db/connect';
import { migrate } from '../db/migrate';
import { seedDemo } from '../db/seed';

let app: App;
let close: () => Promise<void>;
let base: string;
let token: string;
let userId: number;

beforeAll(async () => {
  process.env.LOG_LEVEL = 'silent';
  const database = await openDatabase('pglite://memory');
  close = database.close;
  await migrate(database.db);
  await seedDemo(database.db);
  app = await buildApp({ db: database.db, config: loadConfig({ databaseUrl: 'pglite://memory' }) });
  await app.fastify.listen({ host: '127.0.0.1', port: 0 });
  base = `ws://127.0.0.1:${(app.fastify.server.address() as AddressInfo).port}/ws`;
  const login = await app.fastify.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@demo.local', password: 'Back#Office!Demo', ip: null } });
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
    // Admission (token and tenant checks) finishes after the upgrade: wait for both to be registered.
    await vi.waitFor(() => expect(app.sockets.count('farmacia-central') + app.sockets.count('backoffice')).toBeGreaterThanOrEqual(2));
    const mineFrame = nextFrame(mine);
    const otherFrame = nextFrame(other);
    app.events.publish('farmacia-central', 'GroupOfCustomersUpdated', { groupId: 1, name: 'VIP', change: 'created', customersCount: 3 });
    app.events.publish('backoffice', 'CampaignUpdated', { campaignId: 2, name: 'Natal', status: 'running', total: 10, sent: 1, delivered: 0, read: 0, failed: 0, replied: 0 });
    const decoded = decodeServerFrame(await mineFrame);
    expect(decoded.ok && decoded.event.name).toBe('groupOfCustomersUpdated');
    // The other tenant's first frame is its own event: the farmacia-central one never reached it.
    const theirs = decodeServerFrame(await otherFrame);
    expect(theirs.ok && theirs.event.name).toBe('campaignUpdated');
    mine.close();
    other.close();
  });
});
