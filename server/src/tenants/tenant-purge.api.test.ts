import { sql } from 'kysely';
import { ADMIN_ROLE } from '../db/catalog';
import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestRole, createTestUser } from '../test-support/users';

/**
 * POST /api/tenant/purge (contracts/openapi.yaml tenantPurge): a back-office administrador removes a
 * soft-deleted tenant for good, with every row of it in other tables (the schema's foreign keys), and
 * the audit log records it; a live tenant is 409, an unknown id 404, staff of another role and a
 * customer's administrador 403, and nothing changes on a refusal. Of racing purges (PostgreSQL: a real
 * connection pool) exactly one wins and the others are 404, never a 5xx.
 */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let admin: { authorization: string };
  let staffEditor: { authorization: string };
  let customerAdmin: { authorization: string };
  let counter = 0;

  const bearer = (email: string) => issuedBearer(t, email);

  const purge = (id: number, headers = admin) =>
    t.app.fastify.inject({ method: 'POST', url: '/api/tenant/purge', headers, payload: { id } });

  /** A tenant made through the API, with a user, an instance, a connection, a department and activity. */
  async function populatedTenant(deleted: boolean): Promise<{ id: number; name: string; userId: number }> {
    counter += 1;
    const name = `purgar-${counter}`;
    const created = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant',
      headers: admin,
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
    const id = created.json<{ id: number }>().id;
    const user = await createTestUser(t.db, { email: `${name}@purge.local`, tenant: name, originBackoffice: false });
    const instance = await t.db
      .insertInto('instances')
      .values({ tenant_id: id, name: `Loja ${counter}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.insertInto('user_instances').values({ user_id: user.id, instance_id: instance.id }).execute();
    await t.db.insertInto('connections').values({ tenant_id: id, instance_id: instance.id, name: 'Conexão' }).execute();
    await t.db.insertInto('departments').values({ tenant_id: id, name: 'Vendas' }).execute();
    await t.db
      .insertInto('orders')
      .values({ tenant_id: id, customer_name: 'Cliente', status: 'delivered', items: 1, total: 10 })
      .execute();
    // A session of its user: token families go with the user.
    await bearer(`${name}@purge.local`);
    if (deleted) {
      const removed = await t.app.fastify.inject({
        method: 'POST',
        url: '/api/tenant/delete',
        headers: admin,
        payload: { id },
      });
      expect(removed.statusCode, removed.body).toBe(200);
    }
    return { id, name, userId: user.id };
  }

  /** Rows anywhere that belong to the tenant or its user (the audit log aside, which keeps its history). */
  async function rowsOf(tenantId: number, userId: number): Promise<Record<string, number>> {
    const columns = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and column_name in ('tenant_id', 'user_id')
        and table_name <> 'audit_log'`.execute(t.db);
    const counts: Record<string, number> = {};
    for (const { table_name: table, column_name: column } of columns.rows) {
      const value = column === 'tenant_id' ? tenantId : userId;
      const result = await sql<{ n: number }>`
        select count(*)::int as n from ${sql.table(table)} where ${sql.ref(column)} = ${value}`.execute(t.db);
      counts[`${table}.${column}`] = result.rows[0]?.n ?? -1;
    }
    counts['tenants.id'] = Number(
      (
        await t.db
          .selectFrom('tenants')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('id', '=', tenantId)
          .executeTakeFirstOrThrow()
      ).n,
    );
    counts['users.id'] = Number(
      (
        await t.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
    return counts;
  }

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ seed: { days: 1 }, ...(cluster ? { databaseUrl: cluster.url } : {}) });
    admin = await t.auth('admin@demo.local');
    await createTestRole(t.db, 'tenant_editor', ['tenants']);
    await createTestUser(t.db, {
      email: 'editor@purge.local',
      tenant: 'backoffice',
      role: 'tenant_editor',
      originBackoffice: true,
    });
    staffEditor = await bearer('editor@purge.local');
    const customer = await populatedTenant(false);
    await createTestUser(t.db, {
      email: 'admin-cliente@purge.local',
      tenant: customer.name,
      role: ADMIN_ROLE,
      originBackoffice: false,
    });
    customerAdmin = await bearer('admin-cliente@purge.local');
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  it('removes a deleted tenant with every row of it, answers it as it was, records it, frees its name', async () => {
    const tenant = await populatedTenant(true);
    const before = await rowsOf(tenant.id, tenant.userId);
    // The fixture really put rows where the purge must remove them.
    for (const key of ['tenants.id', 'users.id', 'instances.tenant_id', 'connections.tenant_id'])
      expect(before[key], key).toBeGreaterThan(0);
    for (const key of ['departments.tenant_id', 'orders.tenant_id', 'tenant_features.tenant_id'])
      expect(before[key], key).toBeGreaterThan(0);
    for (const key of ['user_instances.user_id', 'token_families.user_id']) expect(before[key], key).toBeGreaterThan(0);

    const response = await purge(tenant.id);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ id: number; name: string; deleted_at: string | null }>();
    expect(validateResponse('tenantPurge', 200, body)).toEqual({ valid: true, errors: [] });
    expect(body).toMatchObject({ id: tenant.id, name: tenant.name });
    expect(body.deleted_at).not.toBeNull();

    const after = await rowsOf(tenant.id, tenant.userId);
    // Sign-in attempts are the throttle's and the security log's: they stay, their user link cleared.
    const kept = Object.entries(after).filter(([key, n]) => n !== 0 && key !== 'login_attempts.user_id');
    expect(kept).toEqual([]);

    const records = await t.db
      .selectFrom('audit_log')
      .select(['operation', 'target_id', 'target_name', 'tenant_id', 'tenant_name', 'actor_email'])
      .where('operation', '=', 'tenant.purge')
      .where('target_id', '=', tenant.id)
      .execute();
    expect(records).toEqual([
      {
        operation: 'tenant.purge',
        target_id: tenant.id,
        target_name: tenant.name,
        tenant_id: tenant.id,
        tenant_name: tenant.name,
        actor_email: 'admin@demo.local',
      },
    ]);
    // The tenant's earlier records stay.
    const history = await t.db
      .selectFrom('audit_log')
      .select('operation')
      .where('target_id', '=', tenant.id)
      .where('target_type', '=', 'tenant')
      .orderBy('id')
      .execute();
    expect(history.map((r) => r.operation)).toEqual(['tenant.create', 'tenant.delete', 'tenant.purge']);

    const again = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant',
      headers: admin,
      payload: {
        name: tenant.name,
        cnpj: '11.222.333/0001-81',
        features: [],
        template: 'pharmacy',
        pool: 'pool-a',
        userLimit: 5,
        plan: 'starter',
        ticketLimit: 100,
      },
    });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('refuses a live tenant with 409 and changes nothing', async () => {
    const tenant = await populatedTenant(false);
    const before = await rowsOf(tenant.id, tenant.userId);
    const response = await purge(tenant.id);
    expect(response.statusCode, response.body).toBe(409);
    expect(validateResponse('tenantPurge', 409, response.json())).toEqual({ valid: true, errors: [] });
    expect(await rowsOf(tenant.id, tenant.userId)).toEqual(before);
  });

  it('answers 404 for an unknown id', async () => {
    const response = await purge(2_000_000_000);
    expect(response.statusCode, response.body).toBe(404);
    expect(validateResponse('tenantPurge', 404, response.json())).toEqual({ valid: true, errors: [] });
  });

  it('refuses staff of another role (with a reason) and a customer administrador with 403, changing nothing', async () => {
    const tenant = await populatedTenant(true);
    const before = await rowsOf(tenant.id, tenant.userId);
    const byEditor = await purge(tenant.id, staffEditor);
    expect(byEditor.statusCode, byEditor.body).toBe(403);
    expect(validateResponse('tenantPurge', 403, byEditor.json())).toEqual({ valid: true, errors: [] });
    expect(byEditor.json<{ reason?: string }>().reason).toMatch(/administrador/);
    const byCustomer = await purge(tenant.id, customerAdmin);
    expect(byCustomer.statusCode, byCustomer.body).toBe(403);
    expect(await rowsOf(tenant.id, tenant.userId)).toEqual(before);
    // The editor may still delete and restore (the tenants permission); only the purge is the administrador's.
    const restored = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant/restore',
      headers: staffEditor,
      payload: { id: tenant.id },
    });
    expect(restored.statusCode, restored.body).toBe(200);
  });

  it('of concurrent purges exactly one wins, the others are 404 and none is a 5xx', async () => {
    const tenant = await populatedTenant(true);
    const answers = await Promise.all(Array.from({ length: 6 }, () => purge(tenant.id)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 404, 404, 404, 404, 404]);
    const after = await rowsOf(tenant.id, tenant.userId);
    expect(Object.entries(after).filter(([key, n]) => n !== 0 && key !== 'login_attempts.user_id')).toEqual([]);
    const records = await t.db
      .selectFrom('audit_log')
      .select('id')
      .where('operation', '=', 'tenant.purge')
      .where('target_id', '=', tenant.id)
      .execute();
    expect(records).toHaveLength(1);
  });
});
