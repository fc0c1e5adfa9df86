import { trustProxy } from '../base/config';
import { DEMO_PASSWORD } from '../tooling/seed';
import { startTestApp, type TestApp } from '../test-support/app';

/**
 * Behind a proxy (docs/operations.md): with TRUST_PROXY naming it, the client's address comes from
 * X-Forwarded-For, so the sign-in throttle counts the client and not the proxy; X-Forwarded-Proto
 * decides HSTS; a trusted proxy's X-Request-Id is kept and sent back, anyone else's replaced.
 */
const PROXY = '10.9.0.1';
const MAX = 3;
const PER_ADDRESS = 6;
let behind: TestApp;
let direct: TestApp;

beforeAll(async () => {
  const config = { loginMaxFailures: MAX, loginMaxFailuresPerAddress: PER_ADDRESS };
  behind = await startTestApp({ config: { ...config, trustProxy: ['10.9.0.0/16'] } });
  direct = await startTestApp({ config });
}, 120_000);

afterAll(async () => {
  await behind?.close();
  await direct?.close();
});

function login(app: TestApp, email: string, password: string, headers: Record<string, string> = {}) {
  return app.app.fastify.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: PROXY,
    headers,
    payload: { email, password, ip: null },
  });
}

describe('TRUST_PROXY', () => {
  it('reads a hop count, addresses and CIDRs, and refuses anything else', () => {
    expect(trustProxy(undefined)).toBe(false);
    expect(trustProxy('')).toBe(false);
    expect(trustProxy('0')).toBe(false);
    expect(trustProxy('2')).toBe(2);
    expect(trustProxy('10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['proxy.local', '10.0.0.0/33', '10.0.0.1/8/2', '::1/129', 'true', '1.2.3'])
      expect(() => trustProxy(bad), bad).toThrow(/TRUST_PROXY/);
  });

  it('throttles failed sign-ins per forwarded client, not per proxy, without locking the account out elsewhere', async () => {
    const started = new Date(Date.now() - 1000);
    const attacker = { 'x-forwarded-for': '198.51.100.20' };
    for (let i = 0; i < MAX; i += 1)
      expect((await login(behind, 'admin@demo.local', `wrong-${i}`, attacker)).statusCode).toBe(401);
    expect((await login(behind, 'admin@demo.local', DEMO_PASSWORD, attacker)).statusCode).toBe(429);

    // The same account through the same proxy from another client still signs in.
    const owner = await login(behind, 'admin@demo.local', DEMO_PASSWORD, { 'x-forwarded-for': '198.51.100.21' });
    expect(owner.statusCode).toBe(200);
    const recorded = await behind.db
      .selectFrom('login_attempts')
      .select('remote_address')
      .where('email', '=', 'admin@demo.local')
      .where('created_at', '>=', started)
      .execute();
    expect(new Set(recorded.map((r) => r.remote_address))).toEqual(new Set(['198.51.100.20', '198.51.100.21']));
  });

  it('without TRUST_PROXY every client behind the proxy is the proxy: the forwarded address is ignored', async () => {
    const spoofed = await login(direct, 'nobody@demo.local', 'wrong', { 'x-forwarded-for': '203.0.113.99' });
    expect(spoofed.statusCode).toBe(401);
    const row = await direct.db
      .selectFrom('login_attempts')
      .select('remote_address')
      .where('email', '=', 'nobody@demo.local')
      .executeTakeFirstOrThrow();
    expect(row.remote_address).toBe(PROXY);
  });
});

describe('failed sign-ins per address across e-mails', () => {
  it(`refuses an address after ${PER_ADDRESS} failures on any accounts, and only that address`, async () => {
    const sprayer = { 'x-forwarded-for': '198.51.100.30' };
    for (let i = 0; i < PER_ADDRESS; i += 1) {
      // Each e-mail fails fewer times than the per-account limit.
      expect((await login(behind, `spray-${i}@demo.local`, 'wrong-Pass#1', sprayer)).statusCode).toBe(401);
    }
    const refused = await login(behind, 'operador@demo.local', DEMO_PASSWORD, sprayer);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    const elsewhere = await login(behind, 'operador@demo.local', DEMO_PASSWORD, { 'x-forwarded-for': '198.51.100.31' });
    expect(elsewhere.statusCode).toBe(200);
  });
});

describe('request id and HSTS', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  it("keeps a trusted proxy's well-formed X-Request-Id and sends it back; replaces one that could forge a log line", async () => {
    const kept = await behind.app.fastify.inject({
      method: 'GET',
      url: '/healthz',
      remoteAddress: PROXY,
      headers: { 'x-request-id': 'lb-7f3a:42' },
    });
    expect(kept.headers['x-request-id']).toBe('lb-7f3a:42');

    const forged = await behind.app.fastify.inject({
      method: 'GET',
      url: '/healthz',
      remoteAddress: PROXY,
      headers: { 'x-request-id': 'x\n{"level":60}' },
    });
    expect(forged.headers['x-request-id']).toMatch(UUID);

    const none = await behind.app.fastify.inject({ method: 'GET', url: '/healthz', remoteAddress: PROXY });
    expect(none.headers['x-request-id']).toMatch(UUID);
    expect(none.headers['x-request-id']).not.toBe(forged.headers['x-request-id']);
  });

  it('gives a new id to a request that did not come through a trusted proxy, whatever it sends', async () => {
    // Behind a proxy, a client that reaches the server around it; and a server that trusts no proxy.
    const around = await behind.app.fastify.inject({
      method: 'GET',
      url: '/healthz',
      remoteAddress: '203.0.113.50',
      headers: { 'x-request-id': 'chosen-by-client', 'x-forwarded-for': PROXY },
    });
    expect(around.headers['x-request-id']).toMatch(UUID);
    const straight = await direct.app.fastify.inject({
      method: 'GET',
      url: '/healthz',
      remoteAddress: PROXY,
      headers: { 'x-request-id': 'chosen-by-client' },
    });
    expect(straight.headers['x-request-id']).toMatch(UUID);
  });

  // Starts an app of its own: as long as a beforeAll may take.
  it('with a hop count, trusts the connection it came in on', async () => {
    const hops = await startTestApp({ seed: { days: 1 }, config: { trustProxy: 1 } });
    try {
      const answer = await hops.app.fastify.inject({
        method: 'GET',
        url: '/healthz',
        remoteAddress: '192.0.2.10',
        headers: { 'x-request-id': 'edge-91', 'x-forwarded-for': '198.51.100.77' },
      });
      expect(answer.headers['x-request-id']).toBe('edge-91');
    } finally {
      await hops.close();
    }
  }, 120_000);

  it("stores a trusted proxy's id in the audit log, and never an id a client chose", async () => {
    const signIn = (app: TestApp, requestId: string) =>
      app.app.fastify.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: PROXY,
        headers: { 'x-request-id': requestId, 'x-forwarded-for': '198.51.100.40' },
        payload: { email: 'operador@demo.local', password: DEMO_PASSWORD, ip: null },
      });
    const stored = (app: TestApp, after: number) =>
      app.db
        .selectFrom('audit_log')
        .select(['request_id', 'address'])
        .where('id', '>', after)
        .where('operation', '=', 'session.sign-in')
        .execute();
    const last = async (app: TestApp) =>
      (
        await app.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst()
      )?.id ?? 0;

    const behindMark = Number(await last(behind));
    const viaProxy = await signIn(behind, 'lb-sign-in-1');
    expect(viaProxy.statusCode).toBe(200);
    expect(await stored(behind, behindMark)).toEqual([{ request_id: 'lb-sign-in-1', address: '198.51.100.40' }]);

    const directMark = Number(await last(direct));
    const forged = await signIn(direct, 'forged-by-client');
    expect(forged.statusCode).toBe(200);
    const records = await stored(direct, directMark);
    expect(records).toEqual([{ request_id: forged.headers['x-request-id'], address: PROXY }]);
    expect(records[0]?.request_id).toMatch(UUID);
    const anywhere = await direct.db
      .selectFrom('audit_log')
      .select('id')
      .where('request_id', '=', 'forged-by-client')
      .execute();
    expect(anywhere).toEqual([]);
  });

  it('sends HSTS only when the client used HTTPS, as a trusted proxy reports it', async () => {
    const viaHttps = await behind.app.fastify.inject({
      method: 'GET',
      url: '/healthz',
      remoteAddress: PROXY,
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(viaHttps.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');

    const viaHttp = await behind.app.fastify.inject({ method: 'GET', url: '/healthz', remoteAddress: PROXY });
    expect(viaHttp.headers['strict-transport-security']).toBeUndefined();

    // An untrusted sender cannot turn it on.
    const untrusted = await direct.app.fastify.inject({
      method: 'GET',
      url: '/healthz',
      remoteAddress: PROXY,
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(untrusted.headers['strict-transport-security']).toBeUndefined();
  });
});
