import Fastify from 'fastify';
import { metricsOpen } from '../base/config';
import { DEMO_PASSWORD } from '../tooling/seed';
import { startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { registerMetrics } from './metrics';

/**
 * `GET /metrics` (server/src/plugins/metrics.ts, docs/operations.md): Prometheus text whose counters
 * move with the requests, answered only with METRICS_TOKEN from anywhere (loopback too), or to anyone
 * when METRICS_OPEN opened them.
 */
const TOKEN = 'scrape-Secret-1234';
let t: TestApp;

beforeAll(async () => {
  // No rotation grace: a rotated-out token is a reuse at once.
  t = await startTestApp({ config: { metricsToken: TOKEN, rotationGrace: 0 } });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function scrape(app: TestApp = t): Promise<string> {
  const response = await app.app.fastify.inject({
    method: 'GET',
    url: '/metrics',
    remoteAddress: '127.0.0.1',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.body;
}

/** The value of one sample (`name{labels} value`), 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return 0;
}

function login(password: string) {
  return t.app.fastify.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: '10.1.2.3',
    payload: { email: 'admin@demo.local', password, ip: null },
  });
}

describe('GET /metrics', () => {
  it('counts sign-ins by result and requests by route and status', async () => {
    const before = await scrape();
    expect((await login('wrong-Pass#1')).statusCode).toBe(401);
    expect((await login(DEMO_PASSWORD)).statusCode).toBe(200);
    expect((await login(DEMO_PASSWORD)).statusCode).toBe(200);
    const after = await scrape();

    expect(sample(after, 'auth_sign_ins_total', { result: 'invalid' })).toBe(
      sample(before, 'auth_sign_ins_total', { result: 'invalid' }) + 1,
    );
    expect(sample(after, 'auth_sign_ins_total', { result: 'success' })).toBe(
      sample(before, 'auth_sign_ins_total', { result: 'success' }) + 2,
    );
    const route = { method: 'POST', route: '/api/auth/login' };
    expect(sample(after, 'http_request_duration_seconds_count', { ...route, status_code: '200' })).toBe(
      sample(before, 'http_request_duration_seconds_count', { ...route, status_code: '200' }) + 2,
    );
    expect(sample(after, 'http_request_duration_seconds_count', { ...route, status_code: '401' })).toBe(
      sample(before, 'http_request_duration_seconds_count', { ...route, status_code: '401' }) + 1,
    );
    // Node's own metrics and the socket gauge are there too.
    expect(after).toMatch(/^process_cpu_user_seconds_total /m);
    expect(after).toMatch(/^socket_connections_open 0$/m);
    // Routes are labelled as declared, never as sent: no label per id or tenant.
    await t.app.fastify.inject({ method: 'GET', url: '/no/such/path/123' });
    expect(await scrape()).toMatch(/route="unmatched"/);
  });

  it('answers only with the METRICS_TOKEN bearer token, on loopback too', async () => {
    const get = (remoteAddress: string, headers: Record<string, string> = {}) =>
      t.app.fastify.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
    expect((await get('10.1.2.3')).statusCode).toBe(403);
    expect((await get('10.1.2.3', { authorization: 'Bearer wrong' })).statusCode).toBe(403);
    expect((await get('10.1.2.3', { authorization: `Bearer ${TOKEN}x` })).statusCode).toBe(403);
    expect((await get('10.1.2.3', { authorization: TOKEN })).statusCode).toBe(403);
    expect((await get('10.1.2.3', { authorization: `Bearer ${TOKEN}` })).statusCode).toBe(200);
    // Loopback is no credential: a reverse proxy on the same host makes every request loopback.
    for (const loopback of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const refused = await get(loopback);
      expect(refused.statusCode, loopback).toBe(403);
      expect(refused.json()).toEqual({ message: 'Metrics answer only with the METRICS_TOKEN bearer token' });
      expect(refused.body).not.toMatch(/auth_sign_ins_total/);
    }
    expect((await get('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(403);
    expect((await get('::1', { authorization: `Bearer ${TOKEN}` })).statusCode).toBe(200);
  });

  it('answers nobody without METRICS_TOKEN, and anybody when METRICS_OPEN opened them', async () => {
    // The plugin alone on a bare server: what it answers depends on its settings only.
    const closed = Fastify();
    registerMetrics(closed, { metricsToken: undefined, metricsOpen: false });
    const open = Fastify();
    registerMetrics(open, { metricsToken: undefined, metricsOpen: true });
    try {
      for (const headers of [{}, { authorization: 'Bearer ' }, { authorization: 'Bearer undefined' }]) {
        const answer = await closed.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1', headers });
        expect(answer.statusCode).toBe(403);
      }
      const answer = await open.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' });
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toMatch(/^# HELP auth_sign_ins_total /m);
    } finally {
      await closed.close();
      await open.close();
    }
  });

  it('reads METRICS_OPEN: 1 outside production, only the deliberate `production` in production', () => {
    for (const off of [undefined, '', '0', 'false', 'off']) {
      expect(metricsOpen(off, false)).toBe(false);
      expect(metricsOpen(off, true)).toBe(false);
    }
    expect(metricsOpen('1', false)).toBe(true);
    expect(metricsOpen('true', false)).toBe(true);
    expect(() => metricsOpen('1', true)).toThrow(/METRICS_OPEN=1 is refused with NODE_ENV=production/);
    expect(() => metricsOpen('yes', true)).toThrow(/refused with NODE_ENV=production/);
    expect(metricsOpen('production', true)).toBe(true);
    expect(metricsOpen('production', false)).toBe(true);
    expect(() => metricsOpen('sometimes', false)).toThrow(/METRICS_OPEN must be/);
  });

  it('counts refreshes, token reuse and bulk operations', async () => {
    const signedIn = (await login(DEMO_PASSWORD)).json() as { access_token: string };
    const refresh = (token: string) =>
      t.app.fastify.inject({
        method: 'POST',
        url: '/backoffice/graphql',
        headers: { authorization: `Bearer ${token}` },
        payload: { query: 'mutation { refreshToken { token expires_in } }' },
      });
    const before = await scrape();
    const rotated = await refresh(signedIn.access_token);
    expect(rotated.json()).toMatchObject({ data: { refreshToken: { token: expect.any(String) } } });
    // The rotated-out token again: reuse, and its session is revoked.
    expect((await refresh(signedIn.access_token)).statusCode).toBe(401);
    const sheet = (query: string) =>
      t.app.fastify.inject({
        method: 'GET',
        url: `/api/tenant/sheets/reasons?${query}`,
        headers: {
          authorization: `Bearer ${(rotated.json() as { data: { refreshToken: { token: string } } }).data.refreshToken.token}`,
          accept: 'text/csv',
        },
      });
    // The session was revoked by the reuse: sign in again for the sheets.
    const again = (await login(DEMO_PASSWORD)).json() as { access_token: string };
    const csv = await t.app.fastify.inject({
      method: 'GET',
      url: '/api/tenant/sheets/reasons?startAt=2026-01-01&finishAt=2026-01-31',
      headers: { authorization: `Bearer ${again.access_token}`, accept: 'text/csv' },
    });
    expect(csv.statusCode).toBe(200);
    // The token the reused one was rotated into died with its session: refused, and counted as refused.
    expect((await sheet('startAt=2026-02-01&finishAt=2026-01-01')).statusCode).toBe(401);
    const badRange = await t.app.fastify.inject({
      method: 'GET',
      url: '/api/tenant/sheets/reasons?startAt=2026-02-01&finishAt=2026-01-01',
      headers: { authorization: `Bearer ${again.access_token}`, accept: 'text/csv' },
    });
    expect(badRange.statusCode).toBe(400);
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved('auth_refreshes_total', { result: 'rotated' })).toBe(1);
    expect(moved('auth_token_reuse_detections_total')).toBe(1);
    expect(moved('bulk_operations_total', { operation: 'sheetReasons', outcome: 'ok' })).toBe(1);
    expect(moved('bulk_operations_total', { operation: 'sheetReasons', outcome: 'refused' })).toBe(2);
  });
});

describe('GET /metrics on PostgreSQL', () => {
  let pg: ThrowawayPostgres;
  let onPostgres: TestApp;

  beforeAll(async () => {
    pg = await startThrowawayPostgres();
    onPostgres = await startTestApp({ databaseUrl: pg.url, seed: { days: 1 }, config: { metricsToken: TOKEN } });
  }, 120_000);

  afterAll(async () => {
    await onPostgres?.close();
    await pg?.stop();
  });

  it("shows the pool's connections and how long queries waited for one", async () => {
    const before = await scrape(onPostgres);
    await Promise.all(
      Array.from({ length: 5 }, () => onPostgres.app.fastify.inject({ method: 'GET', url: '/readyz' })),
    );
    const after = await scrape(onPostgres);
    expect(sample(after, 'db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    expect(sample(after, 'db_pool_waiting_requests')).toBe(0);
    expect(sample(after, 'db_pool_wait_seconds_count')).toBeGreaterThan(sample(before, 'db_pool_wait_seconds_count'));
  });
});
