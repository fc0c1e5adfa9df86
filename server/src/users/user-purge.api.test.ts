import { sql } from 'kysely';
import { ADMIN_ROLE, OPERATOR_ROLE } from '../db/catalog';
import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestRole, createTestUser } from '../test-support/users';

/**
 * POST /api/users/purge (contracts/openapi.yaml userPurge): a back-office administrador removes a
 * soft-deleted user for good, with every row of it in other tables (the schema's foreign keys), and the
 * audit log records it; a live user and the caller itself are 409, an unknown or already purged id 404,
 * staff of another role and a customer's administrador 403, a malformed id 400, and nothing changes on a
 * refusal. Of racing purges exactly one wins and the others are 404, never a 5xx (on PostgreSQL through
 * a real connection pool).
 */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let admin: { authorization: string };
  let adminId: number;
  let staffEditor: { authorization: string };
  let customerAdmin: { authorization: string };
  let operatorRole: number;
  let counter = 0;
  const PASSWORD = 'Purga#Senha-9Z7';

  const bearer = (email: string) => issuedBearer(t, email);

  const purge = (payload: unknown, headers = admin) =>
    t.app.fastify.inject({ method: 'POST', url: '/api/users/purge', headers, payload: payload as object });

  /**
   * A user made through the API in the caller's own tenant (as a conformance run makes them), which
   * signed in (an attempt and a session), asked a socket ticket, holds a recovery code and an instance
   * link and took part in an attendance; then deleted through the API unless `live`.
   */
  async function populatedUser(live = false): Promise<{ id: number; email: string; username: string }> {
    counter += 1;
    const username = `purgar.${counter}`;
    const email = `purgar-${counter}@purge.local`;
    const created = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: { username, name: `Purgar ${counter}`, email, password: PASSWORD, role_id: operatorRole },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: number; tenantName: string }>().id;
    const tenantId = (await t.db.selectFrom('users').select('tenant_id').where('id', '=', id).executeTakeFirstOrThrow())
      .tenant_id;
    const login = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: PASSWORD, ip: null },
    });
    expect(login.statusCode, login.body).toBe(200);
    const ticket = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/auth/socket-ticket',
      headers: { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` },
    });
    expect(ticket.statusCode, ticket.body).toBe(200);
    await t.db
      .insertInto('two_factor_recovery_codes')
      .values({ user_id: id, code_hash: `hash-${counter}` })
      .execute();
    const instance = await t.db
      .insertInto('instances')
      .values({ tenant_id: tenantId, name: `Loja purga ${counter}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.insertInto('user_instances').values({ user_id: id, instance_id: instance.id }).execute();
    await t.db
      .insertInto('attendances')
      .values({ tenant_id: tenantId, user_id: id, started_at: new Date(), ticket_status: 'open' })
      .execute();
    if (!live) {
      const removed = await t.app.fastify.inject({ method: 'DELETE', url: `/api/users/${id}`, headers: admin });
      expect(removed.statusCode, removed.body).toBe(200);
    }
    return { id, email, username };
  }

  /** Rows anywhere that point at the user (the audit log aside, which keeps its history), and its own. */
  async function rowsOf(userId: number): Promise<Record<string, number>> {
    const columns = await sql<{ table_name: string; column_name: string }>`
      select kcu.table_name, kcu.column_name
      from information_schema.referential_constraints rc
      join information_schema.key_column_usage kcu
        on kcu.constraint_name = rc.constraint_name and kcu.constraint_schema = rc.constraint_schema
      join information_schema.constraint_column_usage ccu
        on ccu.constraint_name = rc.unique_constraint_name and ccu.constraint_schema = rc.unique_constraint_schema
      where rc.constraint_schema = current_schema() and ccu.table_name = 'users' and ccu.column_name = 'id'`.execute(
      t.db,
    );
    const counts: Record<string, number> = {};
    for (const { table_name: table, column_name: column } of columns.rows) {
      const result = await sql<{ n: number }>`
        select count(*)::int as n from ${sql.table(table)} where ${sql.ref(column)} = ${userId}`.execute(t.db);
      counts[`${table}.${column}`] = result.rows[0]?.n ?? -1;
    }
    const own = await sql<{ n: number }>`select count(*)::int as n from users where id = ${userId}`.execute(t.db);
    counts['users.id'] = own.rows[0]?.n ?? -1;
    return counts;
  }

  /** What a refusal must leave as it was: the user's row and every row pointing at it. */
  async function snapshot(userId: number) {
    return {
      rows: await rowsOf(userId),
      user: await t.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst(),
      records: (
        await t.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('target_type', '=', 'user')
          .where('target_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    };
  }

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ seed: { days: 1 }, ...(cluster ? { databaseUrl: cluster.url } : {}) });
    admin = await t.auth('admin@demo.local');
    adminId = (
      await t.db.selectFrom('users').select('id').where('email', '=', 'admin@demo.local').executeTakeFirstOrThrow()
    ).id;
    operatorRole = (
      await t.db.selectFrom('roles').select('id').where('name', '=', OPERATOR_ROLE).executeTakeFirstOrThrow()
    ).id;
    // Room in the back-office tenant for the users this file makes (its seeded limit is not the subject).
    await t.db.updateTable('tenants').set({ user_limit: 100_000 }).where('name', '=', 'backoffice').execute();
    await createTestRole(t.db, 'user_editor', ['users']);
    await createTestUser(t.db, {
      email: 'editor@purge.local',
      tenant: 'backoffice',
      role: 'user_editor',
      originBackoffice: true,
    });
    staffEditor = await bearer('editor@purge.local');
    const customerTenant = await t.db
      .selectFrom('tenants')
      .select('name')
      .where('name', '<>', 'backoffice')
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await createTestUser(t.db, {
      email: 'admin-cliente@purge.local',
      tenant: customerTenant.name,
      role: ADMIN_ROLE,
      originBackoffice: false,
    });
    customerAdmin = await bearer('admin-cliente@purge.local');
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  it('removes a deleted user with every row of it, answers it as it was, records it, frees its e-mail and username', async () => {
    const user = await populatedUser();
    // The delete already took its instance links: one is put back, so the purge is seen to take them too.
    await t.db
      .insertInto('user_instances')
      .values({
        user_id: user.id,
        instance_id: (await t.db.selectFrom('instances').select('id').orderBy('id').executeTakeFirstOrThrow()).id,
      })
      .execute();
    const before = await rowsOf(user.id);
    // The fixture really put rows where the purge must remove or unlink them.
    for (const key of [
      'users.id',
      'user_instances.user_id',
      'token_families.user_id',
      'socket_tickets.user_id',
      'two_factor_recovery_codes.user_id',
      'login_attempts.user_id',
      'attendances.user_id',
    ])
      expect(before[key], key).toBeGreaterThan(0);
    const attempts = (
      await t.db.selectFrom('login_attempts').select('id').where('user_id', '=', user.id).execute()
    ).map((r) => r.id);

    const response = await purge({ id: user.id });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ id: number; email: string; username: string; tenantName: string }>();
    expect(validateResponse('userPurge', 200, body)).toEqual({ valid: true, errors: [] });
    expect(body).toMatchObject({ id: user.id, email: user.email, username: user.username, tenantName: 'backoffice' });

    const after = await rowsOf(user.id);
    expect(Object.entries(after).filter(([, n]) => n !== 0)).toEqual([]);
    // Sign-in attempts are the throttle's and the security log's, attendances the tenant's reports: they
    // stay, their user link cleared.
    const kept = await t.db
      .selectFrom('login_attempts')
      .select(['id', 'user_id'])
      .where('id', 'in', attempts)
      .execute();
    expect(kept.map((r) => r.user_id)).toEqual(attempts.map(() => null));
    const attendances = await t.db
      .selectFrom('attendances')
      .select('id')
      .where('user_id', 'is', null)
      .where('ticket_status', '=', 'open')
      .execute();
    expect(attendances.length).toBeGreaterThan(0);

    const records = await t.db
      .selectFrom('audit_log')
      .select(['operation', 'target_id', 'target_name', 'tenant_name', 'actor_email'])
      .where('operation', '=', 'user.purge')
      .where('target_id', '=', user.id)
      .execute();
    expect(records).toEqual([
      {
        operation: 'user.purge',
        target_id: user.id,
        target_name: `Purgar ${user.username.split('.')[1]}`,
        tenant_name: 'backoffice',
        actor_email: 'admin@demo.local',
      },
    ]);
    // The user's earlier records stay.
    const history = await t.db
      .selectFrom('audit_log')
      .select('operation')
      .where('target_id', '=', user.id)
      .where('target_type', '=', 'user')
      .orderBy('id')
      .execute();
    expect(history.map((r) => r.operation)).toEqual(['user.create', 'user.delete', 'user.purge']);

    const again = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: {
        username: user.username,
        name: 'De novo',
        email: user.email,
        password: PASSWORD,
        role_id: operatorRole,
      },
    });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json<{ id: number }>().id).not.toBe(user.id);
  });

  it('refuses a live user with 409 and changes nothing', async () => {
    const user = await populatedUser(true);
    const before = await snapshot(user.id);
    const response = await purge({ id: user.id });
    expect(response.statusCode, response.body).toBe(409);
    expect(validateResponse('userPurge', 409, response.json())).toEqual({ valid: true, errors: [] });
    expect(response.json<{ message: string }>().message).toMatch(/delete it/);
    expect(await snapshot(user.id)).toEqual(before);
  });

  it('answers 404 for an unknown id and for a user already purged', async () => {
    const unknown = await purge({ id: 2_000_000_000 });
    expect(unknown.statusCode, unknown.body).toBe(404);
    expect(validateResponse('userPurge', 404, unknown.json())).toEqual({ valid: true, errors: [] });
    const user = await populatedUser();
    expect((await purge({ id: user.id })).statusCode).toBe(200);
    const again = await purge({ id: user.id });
    expect(again.statusCode, again.body).toBe(404);
    expect(validateResponse('userPurge', 404, again.json())).toEqual({ valid: true, errors: [] });
  });

  it('refuses staff of another role (with a reason) and a customer administrador with 403, itself with 409, changing nothing', async () => {
    const user = await populatedUser();
    const before = await snapshot(user.id);
    const byEditor = await purge({ id: user.id }, staffEditor);
    expect(byEditor.statusCode, byEditor.body).toBe(403);
    expect(validateResponse('userPurge', 403, byEditor.json())).toEqual({ valid: true, errors: [] });
    expect(byEditor.json<{ reason?: string }>().reason).toMatch(/administrador/);
    const byCustomer = await purge({ id: user.id }, customerAdmin);
    expect(byCustomer.statusCode, byCustomer.body).toBe(403);
    expect(validateResponse('userPurge', 403, byCustomer.json())).toEqual({ valid: true, errors: [] });
    expect(await snapshot(user.id)).toEqual(before);

    const adminBefore = await snapshot(adminId);
    const itself = await purge({ id: adminId });
    expect(itself.statusCode, itself.body).toBe(409);
    expect(validateResponse('userPurge', 409, itself.json())).toEqual({ valid: true, errors: [] });
    expect(itself.json<{ message: string }>().message).toMatch(/yourself/);
    expect(await snapshot(adminId)).toEqual(adminBefore);
  });

  it.each([
    ['a string', { id: 'abc' }],
    ['a float', { id: 1.5 }],
    ['1e308', { id: 1e308 }],
    ['a negative number', { id: -1 }],
    ['zero', { id: 0 }],
    ['no id', {}],
  ])('answers 400 for %s as the id, changing nothing', async (_name, payload) => {
    const user = await populatedUser();
    const before = await snapshot(user.id);
    const response = await purge(payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(validateResponse('userPurge', 400, response.json())).toEqual({ valid: true, errors: [] });
    expect(await snapshot(user.id)).toEqual(before);
  });

  it('of concurrent purges exactly one wins, the others are 404 and none is a 5xx', async () => {
    const user = await populatedUser();
    const answers = await Promise.all(Array.from({ length: 6 }, () => purge({ id: user.id })));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 404, 404, 404, 404, 404]);
    expect(Object.entries(await rowsOf(user.id)).filter(([, n]) => n !== 0)).toEqual([]);
    const records = await t.db
      .selectFrom('audit_log')
      .select('id')
      .where('operation', '=', 'user.purge')
      .where('target_id', '=', user.id)
      .execute();
    expect(records).toHaveLength(1);
  });
});
