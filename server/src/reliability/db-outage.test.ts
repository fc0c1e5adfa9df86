import type { InjectOptions } from 'fastify';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { decodeServerFrame } from '../../../src/domain/socket-codec';
import { buildApp, type App } from '../app';
import { loadConfig } from '../base/config';
import { openDatabase, type OpenDatabase } from '../db/connect';
import { startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { admitted, socketQuery, socketTicket } from '../test-support/socket-client';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';

/**
 * Availability (docs/product.md): the database becomes unavailable while the server runs. Every kind of call answers
 * 503 with the contract body and Retry-After (REST, login, GraphQL, readiness), a socket is closed with
 * 1013 rather than admitted or crashed, liveness stays up; when PostgreSQL comes back the SAME server
 * process serves again with the SAME token, and events cross processes again (the LISTEN connection of
 * the relay reconnects by itself).
 */
let pg: ThrowawayPostgres;
let a: TestApp;
let second: { app: App; database: OpenDatabase; base: string } | undefined;

beforeAll(async () => {
  pg = await startThrowawayPostgres({ own: true });
  a = await startTestApp({ databaseUrl: pg.url, seed: { days: 2 } });
  // A second server on the same schema, as a second process would be: its own pool and relay.
  const database = await openDatabase(a.databaseUrl);
  const app = await buildApp({
    db: database.db,
    config: loadConfig({ databaseUrl: a.databaseUrl, seedDemo: false }),
    ...(database.pg ? { pg: database.pg } : {}),
  });
  await app.fastify.listen({ host: '127.0.0.1', port: 0 });
  second = { app, database, base: `ws://127.0.0.1:${(app.fastify.server.address() as AddressInfo).port}` };
  await app.relay?.ready();
}, 120_000);

afterAll(async () => {
  await second?.app.fastify.close();
  await second?.database.close();
  await a?.close();
  await pg?.stop();
});

const inject = (options: InjectOptions) => a.app.fastify.inject(options);

async function untilReady(deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const ready = await inject({ method: 'GET', url: '/readyz' });
    if (ready.statusCode === 200) return;
    if (Date.now() > deadline)
      throw new Error(`/readyz still ${ready.statusCode} after ${deadlineMs} ms: ${ready.body}`);
    // Wait for the condition: the next probe, not a fixed sleep for the whole recovery.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function expect503(
  response: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  operationId: string,
) {
  expect(response.statusCode).toBe(503);
  expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  const body = response.json();
  expect(validateResponse(operationId, 503, body).errors).toEqual([]);
  expect(body).toMatchObject({ status: 'unavailable', message: expect.stringMatching(/database/i) });
}

describe('database outage and recovery on one server process', () => {
  it('answers 503 with Retry-After while PostgreSQL is down and serves again, with the same token, once it is back', async () => {
    const login = await inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin@demo.local', password: 'Back#Office!Demo', ip: null },
    });
    const { access_token: token, user } = login.json<{ access_token: string; user: { id: number } }>();
    const authorization = `Bearer ${token}`;
    expect((await inject({ method: 'GET', url: '/api/users', headers: { authorization } })).statusCode).toBe(200);
    // Asked before the outage (asking needs the database too), used during it.
    const ticket = await socketTicket(a.app, authorization);

    await pg.pause();
    try {
      const started = Date.now();
      expect503(await inject({ method: 'GET', url: '/api/users', headers: { authorization } }), 'userList');
      expect503(
        await inject({ method: 'POST', url: '/api/tenant/paginated', headers: { authorization }, payload: {} }),
        'tenantPaginated',
      );
      expect503(
        await inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: 'admin@demo.local', password: 'Back#Office!Demo', ip: null },
        }),
        'authLogin',
      );
      expect503(await inject({ method: 'GET', url: '/readyz' }), 'healthReady');
      // Liveness does not depend on the database: the process is fine, only not ready.
      expect((await inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      // Refused connections fail fast: no request waits for a timeout.
      expect(Date.now() - started).toBeLessThan(10_000);

      const graphql = await inject({
        method: 'POST',
        url: '/backoffice/graphql',
        headers: { authorization, 'content-type': 'application/json' },
        payload: JSON.stringify({ query: '{ users { id } }' }),
      });
      expect(graphql.statusCode).toBe(503);
      expect(graphql.json()).toMatchObject({ status: 'unavailable' });
      expect(Number(graphql.headers['retry-after'])).toBeGreaterThanOrEqual(1);

      // A socket cannot be checked: closed with 1013 (try again later), not admitted, not 1011.
      const base = second?.base ?? '';
      const ws = new WebSocket(`${base}/ws?${socketQuery('backoffice', user.id, ticket)}`);
      const [code, reason] = (await once(ws, 'close')) as [number, Buffer];
      expect(code).toBe(1013);
      expect(reason.toString()).toMatch(/database/i);
    } finally {
      await pg.resume();
    }

    await untilReady(30_000);
    const users = await inject({ method: 'GET', url: '/api/users', headers: { authorization } });
    expect(users.statusCode).toBe(200);
    expect(validateResponse('userList', 200, users.json()).errors).toEqual([]);
    expect(
      (
        await inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: 'admin@demo.local', password: 'Back#Office!Demo', ip: null },
        })
      ).statusCode,
    ).toBe(200);
    const graphql = await inject({
      method: 'POST',
      url: '/backoffice/graphql',
      headers: { authorization, 'content-type': 'application/json' },
      payload: JSON.stringify({ query: '{ users { id } }' }),
    });
    expect(graphql.statusCode).toBe(200);

    // Events cross processes again: the relay's LISTEN connection came back by itself.
    await second?.app.relay?.ready();
    const ws = new WebSocket(
      `${second?.base ?? ''}/ws?${socketQuery('farmacia-central', user.id, await socketTicket(a.app, authorization))}`,
    );
    const received: string[] = [];
    ws.on('message', (raw) => {
      const frame = decodeServerFrame(raw.toString());
      if (frame.ok && frame.event.name === 'instanceUpdated')
        received.push((frame.event.data as { name: string }).name);
    });
    await once(ws, 'open');
    // Admission is asynchronous: it is over once the ping is answered.
    await admitted(ws, 'farmacia-central', user.id);
    const name = `after-outage-${Date.now()}`;
    const created = await inject({
      method: 'POST',
      url: '/api/instance',
      headers: { authorization },
      payload: { name, tenantName: 'farmacia-central', isOfficial: false, isUnlimited: false },
    });
    expect(created.statusCode).toBe(201);
    const deadline = Date.now() + 10_000;
    while (!received.includes(name) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(received).toContain(name);
    ws.close();
  }, 90_000);
});
