import { startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { TEST_PASSWORD, createTestUser } from '../test-support/users';

/**
 * POST /api/tenant/purge (contracts/openapi.yaml tenantPurge) from an attacker's side: bodies the
 * contract refuses are 400 (never a 500 from the database), the back office's own tenant cannot go, a
 * purged tenant's user holds no session anywhere (REST, GraphQL, the socket's ticket), and purge, restore
 * and delete racing on one tenant (PostgreSQL: a real pool) leave one consistent outcome and no 5xx.
 */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let admin: { authorization: string };
  let counter = 0;

  const call = (url: string, payload: unknown, headers = admin) =>
    t.app.fastify.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });

  async function freshTenant(): Promise<{ id: number; name: string }> {
    counter += 1;
    const name = `atacar-${postgres ? 'pg' : 'pgl'}-${counter}`;
    const created = await call('/api/tenant', {
      name,
      cnpj: '11.222.333/0001-81',
      features: [],
      template: 'pharmacy',
      pool: 'pool-a',
      userLimit: 5,
      plan: 'starter',
      ticketLimit: 100,
    });
    expect(created.statusCode, created.body).toBe(201);
    return { id: created.json<{ id: number }>().id, name };
  }

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ seed: { days: 1 }, ...(cluster ? { databaseUrl: cluster.url } : {}) });
    admin = await t.auth('admin@demo.local');
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  it.each([
    ['a huge float', '{"id":1e308}'],
    ['past int4', '{"id":2147483648}'],
    ['negative', '{"id":-1}'],
    ['zero', '{"id":0}'],
    ['a fraction', '{"id":1.5}'],
    ['a string', '{"id":"1"}'],
    ['null', '{"id":null}'],
    ['an object', '{"id":{}}'],
    ['no id', '{}'],
    ['an extra property', '{"id":1,"cascade":false}'],
    ['an array body', '[1]'],
    ['a long digit string', `{"id":${'9'.repeat(5000)}}`],
  ])('answers 400 to %s, never a 5xx', async (_what, payload) => {
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant/purge',
      headers: { ...admin, 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode, response.body).toBe(400);
  });

  it("refuses the back office's own tenant (live, and nobody may delete it)", async () => {
    const own = await t.db
      .selectFrom('tenants')
      .select('id')
      .where('name', '=', 'backoffice')
      .executeTakeFirstOrThrow();
    expect((await call('/api/tenant/delete', { id: own.id })).statusCode).toBe(409);
    expect((await call('/api/tenant/purge', { id: own.id })).statusCode).toBe(409);
    expect(await t.db.selectFrom('tenants').select('id').where('id', '=', own.id).executeTakeFirst()).toBeDefined();
  });

  it("leaves a purged tenant's user no session: REST, GraphQL and the socket ticket answer 401", async () => {
    const tenant = await freshTenant();
    const email = `${tenant.name}@purge.local`;
    await createTestUser(t.db, { email, tenant: tenant.name, originBackoffice: false });
    const login = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: TEST_PASSWORD, ip: null },
    });
    expect(login.statusCode, login.body).toBe(200);
    const user = { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` };
    expect((await t.app.fastify.inject({ method: 'GET', url: '/api/auth/userInfo', headers: user })).statusCode).toBe(
      200,
    );
    expect((await call('/api/tenant/delete', { id: tenant.id })).statusCode).toBe(200);
    const purged = await call('/api/tenant/purge', { id: tenant.id });
    expect(purged.statusCode, purged.body).toBe(200);

    const info = await t.app.fastify.inject({ method: 'GET', url: '/api/auth/userInfo', headers: user });
    expect(info.statusCode, info.body).toBe(401);
    const ticket = await call('/api/auth/socket-ticket', {}, user);
    expect(ticket.statusCode, ticket.body).toBe(401);
    const graphql = await t.app.fastify.inject({
      method: 'POST',
      url: `/${tenant.name}/graphql`,
      headers: user,
      payload: { query: '{ roles { id } }' },
    });
    expect(graphql.statusCode, graphql.body).toBe(401);
  });

  it('is not reachable over GraphQL (a REST-only extension)', async () => {
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/backoffice/graphql',
      headers: admin,
      payload: { query: 'mutation { tenantPurge(id: 1) { id } }' },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.body).toContain('tenantPurge');
  });

  it('of purge, restore and delete racing on one tenant: one consistent outcome, no 5xx', async () => {
    for (let round = 0; round < (postgres ? 6 : 2); round += 1) {
      const tenant = await freshTenant();
      expect((await call('/api/tenant/delete', { id: tenant.id })).statusCode).toBe(200);
      const order = ['purge', 'restore', 'purge', 'delete', 'restore', 'purge'];
      // Rotated each round so each operation gets to start first.
      const ops = [...order.slice(round % order.length), ...order.slice(0, round % order.length)];
      const answers = await Promise.all(ops.map((op) => call(`/api/tenant/${op}`, { id: tenant.id })));
      const statuses = answers.map((a, i) => `${ops[i] ?? ''} ${a.statusCode}`);
      expect(
        answers.filter((a) => a.statusCode >= 500 || ![200, 404, 409].includes(a.statusCode)),
        statuses.join(', '),
      ).toEqual([]);
      const purges = answers.filter((a, i) => ops[i] === 'purge' && a.statusCode === 200).length;
      const row = await t.db.selectFrom('tenants').select('id').where('id', '=', tenant.id).executeTakeFirst();
      expect(purges, statuses.join(', ')).toBeLessThanOrEqual(1);
      expect(row === undefined, statuses.join(', ')).toBe(purges === 1);
      const recorded = await t.db
        .selectFrom('audit_log')
        .select('id')
        .where('operation', '=', 'tenant.purge')
        .where('target_id', '=', tenant.id)
        .execute();
      expect(recorded).toHaveLength(purges);
    }
  }, 60_000);
});
