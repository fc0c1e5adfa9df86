import { DEMO_PASSWORD } from '../db/seed';
import { startTestApp, type TestApp } from '../test-support/app';

/**
 * `GET /metrics` (server/src/plugins/metrics.ts, docs/operations.md): Prometheus text whose counters
 * move with the requests, open on direct loopback only, elsewhere only with METRICS_TOKEN.
 */
const TOKEN = 'scrape-Secret-1234';
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ config: { metricsToken: TOKEN } });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function scrape(): Promise<string> {
  const response = await t.app.fastify.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
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

  it('answers elsewhere only with the METRICS_TOKEN bearer token', async () => {
    const get = (remoteAddress: string, headers: Record<string, string> = {}) =>
      t.app.fastify.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
    expect((await get('10.1.2.3')).statusCode).toBe(403);
    expect((await get('10.1.2.3', { authorization: 'Bearer wrong' })).statusCode).toBe(403);
    expect((await get('10.1.2.3', { authorization: `Bearer ${TOKEN}x` })).statusCode).toBe(403);
    expect((await get('10.1.2.3', { authorization: `Bearer ${TOKEN}` })).statusCode).toBe(200);
    // A request a local proxy forwarded is not a local caller.
    expect((await get('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(403);
    expect((await get('::1')).statusCode).toBe(200);
  });
});
