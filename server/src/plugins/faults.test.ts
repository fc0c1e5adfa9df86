import { loadConfig } from '../base/config';
import { startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { parseFaultRules } from '../base/fault-rules';

/**
 * The fault-injection facility (for tests and e2e "bulk feature update with one
 * failing feature"): off unless FAULT_INJECTION=1, refused in production, rules from FAULTS and from the
 * test-only endpoint, matching by operation and input, counted, after authentication.
 */
let on: TestApp;
let off: TestApp;
let authorization: string;

beforeAll(async () => {
  const faults = parseFaultRules(
    JSON.stringify([{ operationId: 'featureUpdate', match: { option: 'chatbot' }, status: 503, times: 1 }]),
  );
  [on, off] = await Promise.all([
    startTestApp({ seed: { days: 1 }, config: { faultInjection: true, faults } }),
    startTestApp({ seed: { days: 1 } }),
  ]);
  ({ authorization } = await on.auth('admin@demo.local'));
}, 120_000);

afterAll(async () => {
  await Promise.all([on?.close(), off?.close()]);
});

const feature = (option: string) =>
  on.app.fastify.inject({
    method: 'POST',
    url: '/api/tenant/feature',
    headers: { authorization },
    payload: { option, enabled: true, tenantName: 'farmacia-central' },
  });

describe('configuration', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('is off by default: no endpoint, no hook', async () => {
    expect(loadConfig().faultInjection).toBe(false);
    expect(
      (
        await off.app.fastify.inject({
          method: 'POST',
          url: '/__test/faults',
          payload: { operationId: 'userList', status: 500 },
        })
      ).statusCode,
    ).toBe(404);
    expect(off.app.faults).toBeUndefined();
  });

  it('refuses to start with FAULT_INJECTION=1 in production', () => {
    process.env.FAULT_INJECTION = '1';
    process.env.NODE_ENV = 'production';
    expect(() => loadConfig()).toThrow(/FAULT_INJECTION=1 is refused with NODE_ENV=production/);
    process.env.NODE_ENV = 'test';
    process.env.FAULTS = '[{"operationId":"userList","status":418}]';
    expect(loadConfig()).toMatchObject({ faultInjection: true, faults: [{ operationId: 'userList', status: 418 }] });
  });

  it('refuses malformed FAULTS', () => {
    expect(() => parseFaultRules('[{"operationId":"userList"}]')).toThrow(/status/);
    expect(() => parseFaultRules('[{"operationId":"userList","status":200}]')).toThrow(/400–599/);
    expect(() => parseFaultRules('not json')).toThrow();
  });
});

describe('rules', () => {
  afterEach(async () => {
    await on.app.fastify.inject({ method: 'DELETE', url: '/__test/faults' });
  });

  it('the FAULTS rule fails one matching feature once, with the contract 503 body; other features and later calls pass', async () => {
    const other = await feature('campaigns');
    expect(other.statusCode).toBe(200);
    const failed = await feature('chatbot');
    expect(failed.statusCode).toBe(503);
    expect(failed.headers['x-fault-injected']).toEqual(expect.any(String));
    expect(Number(failed.headers['retry-after'])).toBeGreaterThan(0);
    expect(validateResponse('featureUpdate', 503, failed.json()).errors).toEqual([]);
    expect((await feature('chatbot')).statusCode).toBe(200);
  });

  it('the endpoint adds, lists (with what is left) and clears rules; GraphQL operations match by operationName and variables', async () => {
    const added = await on.app.fastify.inject({
      method: 'POST',
      url: '/__test/faults',
      payload: [
        { operationId: 'userInstances', match: { user_id: 1 }, status: 500, times: 2 },
        { operationId: 'featureList', status: 409, body: { message: 'custom' } },
      ],
    });
    expect(added.statusCode).toBe(201);
    const gql = (userId: number) =>
      on.app.fastify.inject({
        method: 'POST',
        url: '/backoffice/graphql',
        headers: { authorization, 'content-type': 'application/json' },
        payload: JSON.stringify({
          query: 'query userInstances($user_id: Int!) { userInstances(user_id: $user_id) { id } }',
          operationName: 'userInstances',
          variables: { user_id: userId },
        }),
      });
    const faulted = await gql(1);
    expect(faulted.statusCode).toBe(500);
    expect(faulted.json()).toEqual({
      errors: [{ message: 'Injected fault (HTTP 500)', extensions: { code: 'INJECTED_FAULT' } }],
    });
    expect((await gql(2)).statusCode).toBe(200);
    const listed = (await on.app.fastify.inject({ method: 'GET', url: '/__test/faults' })).json<{
      rules: { operationId: string; remaining: number | null; fired: number }[];
    }>();
    expect(listed.rules.map((r) => [r.operationId, r.remaining, r.fired])).toEqual([
      ['userInstances', 1, 1],
      ['featureList', null, 0],
    ]);
    const custom = await on.app.fastify.inject({
      method: 'GET',
      url: '/api/tenant/feature?tenantName=farmacia-central',
      headers: { authorization },
    });
    expect(custom.statusCode).toBe(409);
    expect(custom.json()).toEqual({ message: 'custom' });

    expect((await on.app.fastify.inject({ method: 'DELETE', url: '/__test/faults' })).json()).toEqual({ rules: [] });
    expect(
      (
        await on.app.fastify.inject({
          method: 'GET',
          url: '/api/tenant/feature?tenantName=farmacia-central',
          headers: { authorization },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('runs after validation and authentication: an anonymous or malformed request keeps its own answer', async () => {
    await on.app.fastify.inject({
      method: 'POST',
      url: '/__test/faults',
      payload: { operationId: 'featureUpdate', status: 500 },
    });
    const anonymous = await on.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant/feature',
      payload: { option: 'chatbot', enabled: true, tenantName: 'farmacia-central' },
    });
    expect(anonymous.statusCode).toBe(401);
    const malformed = await on.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant/feature',
      headers: { authorization },
      payload: { option: 'chatbot' },
    });
    expect(malformed.statusCode).toBe(400);
    expect((await feature('chatbot')).statusCode).toBe(500);
  });

  it('holds a request for delayMs before answering', async () => {
    await on.app.fastify.inject({
      method: 'POST',
      url: '/__test/faults',
      payload: { operationId: 'userList', status: 503, delayMs: 300, times: 1 },
    });
    const started = performance.now();
    const response = await on.app.fastify.inject({ method: 'GET', url: '/api/users', headers: { authorization } });
    expect(response.statusCode).toBe(503);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('refuses rules the endpoint cannot apply', async () => {
    const bad = await on.app.fastify.inject({
      method: 'POST',
      url: '/__test/faults',
      payload: { operationId: 'userList', status: 200 },
    });
    expect(bad.statusCode).toBe(400);
  });
});
