import { ADMIN_ROLE } from '../db/catalog';
import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestRole, createTestUser, type TestUser } from '../test-support/users';
import { UNDO_WINDOW_MS } from '../audit/undo';
import type { AuditPageDto, AuditRecordDto } from '../audit/service';

// POST /api/audit/{id}/undo (contracts/openapi.yaml auditUndo; server/src/undo/service.ts): a change
// undone within the window and not after it, a conflict when the target changed since, refusals as the
// undone operation answers (403, 404), another administrador's undo, undo of an undo, and on
// PostgreSQL concurrent undos of one record and an undo racing an edit.
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let staff: { authorization: string };
  let otherAdmin: { authorization: string };
  let customerAdmin: { authorization: string };
  let auditOnly: { authorization: string };
  let home: { id: number; name: string };
  let away: { id: number; name: string };
  let seq = 0;

  async function createTenant(name: string, cnpj: string) {
    return t.db
      .insertInto('tenants')
      .values({ name, cnpj, template: 't', pool: 'p', plan: 'starter', user_limit: 50, ticket_limit: 10 })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
  }

  /** A fresh user of `tenant` to change, with a name of its own. */
  async function subject(tenant: { name: string }): Promise<TestUser> {
    seq += 1;
    return createTestUser(t.db, { email: `alvo-${seq}-${postgres ? 'pg' : 'pl'}@undo.local`, tenant: tenant.name });
  }

  function send(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    headers: { authorization: string },
    payload?: Record<string, unknown>,
  ) {
    return t.app.fastify.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  }

  /** Renames a user through REST; answers the audit record the answer names. */
  async function rename(user: TestUser, name: string, headers = staff): Promise<number> {
    const row = await t.db
      .selectFrom('users')
      .select(['username', 'email', 'role_id'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const response = await send('PUT', `/api/users/${user.id}?tenantName=${user.tenantName}`, headers, {
      username: row.username,
      email: row.email,
      role_id: row.role_id,
      name,
    });
    expect(response.statusCode, response.body).toBe(200);
    const id = Number(response.headers['x-audit-record']);
    expect(Number.isInteger(id) && id > 0, `x-audit-record: ${String(response.headers['x-audit-record'])}`).toBe(true);
    return id;
  }

  const undo = (id: number, headers = staff) => send('POST', `/api/audit/${id}/undo`, headers);

  async function nameOf(id: number): Promise<string> {
    return (await t.db.selectFrom('users').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;
  }

  async function record(id: number): Promise<AuditRecordDto> {
    const row = await t.db
      .selectFrom('audit_log')
      .select(['operation', 'target_type', 'target_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // A batch's record has no target: found by its operation.
    const filter =
      row.target_id === null ? `operation=${row.operation}` : `targetType=${row.target_type}&targetId=${row.target_id}`;
    const response = await send('GET', `/api/audit?${filter}&limit=200`, staff);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<AuditPageDto>();
    expect(validateResponse('auditList', 200, body)).toEqual({ valid: true, errors: [] });
    const found = body.data.find((r) => r.id === id);
    if (!found) throw new Error(`record ${id} not listed`);
    return found;
  }

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    t = await startTestApp({ seed: { days: 1 }, ...(cluster ? { databaseUrl: cluster.url } : {}) });
    const admin = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'admin@demo.local')
      .executeTakeFirstOrThrow();
    staff = await issuedBearer(t, admin.id);
    home = await createTenant('desfazer-casa', '11.222.333/0001-81');
    away = await createTenant('desfazer-fora', '11.444.777/0001-61');
    const second = await createTestUser(t.db, {
      email: 'segunda-admin@undo.local',
      tenant: 'backoffice',
      role: ADMIN_ROLE,
    });
    otherAdmin = await issuedBearer(t, second.id);
    const customer = await createTestUser(t.db, {
      email: 'admin-cliente@undo.local',
      tenant: home.name,
      role: ADMIN_ROLE,
      originBackoffice: false,
    });
    customerAdmin = await issuedBearer(t, customer.id);
    await createTestRole(t.db, 'so-auditoria', ['audit']);
    const reader = await createTestUser(t.db, {
      email: 'leitor@undo.local',
      tenant: 'backoffice',
      role: 'so-auditoria',
    });
    auditOnly = await issuedBearer(t, reader.id);
  }, 120_000);

  afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
    await cluster?.stop();
  });

  it('undoes a user change within the window: the name goes back, the records say who undid what, and the undo is undoable', async () => {
    const user = await subject(home);
    const original = await nameOf(user.id);
    const change = await rename(user, 'Nome Trocado');
    const listed = await record(change);
    expect(listed.undone_by).toBeNull();
    expect(Date.parse(listed.undoable_until ?? '')).toBe(Date.parse(listed.at) + UNDO_WINDOW_MS);

    const response = await undo(change);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ undone: number; by: number }>();
    expect(validateResponse('auditUndo', 200, body)).toEqual({ valid: true, errors: [] });
    expect(body.undone).toBe(change);
    expect(Number(response.headers['x-audit-record'])).toBe(body.by);
    expect(await nameOf(user.id)).toBe(original);

    const undone = await record(change);
    expect(undone).toMatchObject({ undone_by: body.by, undoable_until: null });
    const reversing = await record(body.by);
    expect(reversing).toMatchObject({
      operation: 'user.update',
      undo_of: change,
      target_id: user.id,
      changes: [{ field: 'name', before: JSON.stringify('Nome Trocado'), after: JSON.stringify(original) }],
    });
    expect(reversing.undoable_until).not.toBeNull();

    // The undo undone: the change is back.
    const again = await undo(body.by);
    expect(again.statusCode, again.body).toBe(200);
    expect(await nameOf(user.id)).toBe('Nome Trocado');
    // A record is undone once.
    const twice = await undo(change);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ error: 'already_undone' });
    expect(validateResponse('auditUndo', 409, twice.json())).toEqual({ valid: true, errors: [] });
  });

  it('refuses after the window (409 undo_expired), the clock moved past it', async () => {
    const user = await subject(home);
    const change = await rename(user, 'Tarde Demais');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + UNDO_WINDOW_MS + 1000);
      // A header issued on the moved clock (an older token may have expired meanwhile).
      const admin = await t.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'admin@demo.local')
        .executeTakeFirstOrThrow();
      const response = await undo(change, await issuedBearer(t, admin.id));
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toMatchObject({ error: 'undo_expired' });
    } finally {
      vi.useRealTimers();
    }
    expect(await nameOf(user.id)).toBe('Tarde Demais');
  });

  it('answers 409 undo_conflict with the fields when the record changed since, and writes nothing', async () => {
    const user = await subject(home);
    const first = await rename(user, 'Primeira');
    await rename(user, 'Segunda', otherAdmin);
    const before = await t.db
      .selectFrom('audit_log')
      .select(({ fn }) => fn.max('id').as('max'))
      .executeTakeFirstOrThrow();
    const response = await undo(first);
    expect(response.statusCode, response.body).toBe(409);
    expect(validateResponse('auditUndo', 409, response.json())).toEqual({ valid: true, errors: [] });
    expect(response.json()).toEqual({
      message: expect.any(String),
      error: 'undo_conflict',
      conflicts: [
        {
          record_id: first,
          target_id: user.id,
          target_name: expect.any(String),
          fields: [{ field: 'name', recorded: JSON.stringify('Primeira'), current: JSON.stringify('Segunda') }],
        },
      ],
    });
    expect(await nameOf(user.id)).toBe('Segunda');
    const after = await t.db
      .selectFrom('audit_log')
      .select(({ fn }) => fn.max('id').as('max'))
      .executeTakeFirstOrThrow();
    expect(after.max).toBe(before.max);
    expect((await record(first)).undone_by).toBeNull();
  });

  it('lets another administrador undo, and refuses a principal without the permission (403) and another tenant (404)', async () => {
    const user = await subject(home);
    const original = await nameOf(user.id);
    const change = await rename(user, 'Por Outra Pessoa');
    const forbidden = await undo(change, auditOnly);
    expect(forbidden.statusCode, forbidden.body).toBe(403);
    expect(forbidden.json()).toMatchObject({ required_permission: ['users'] });

    const awayUser = await subject(away);
    const awayChange = await rename(awayUser, 'Outra Empresa');
    const hidden = await undo(awayChange, customerAdmin);
    expect(hidden.statusCode, hidden.body).toBe(404);
    expect(await nameOf(awayUser.id)).toBe('Outra Empresa');
    expect((await undo(2_147_483_000)).statusCode).toBe(404);

    const response = await undo(change, otherAdmin);
    expect(response.statusCode, response.body).toBe(200);
    expect(await nameOf(user.id)).toBe(original);
  });

  it("lets a customer tenant's administrador undo its own tenant's change", async () => {
    const user = await subject(home);
    const original = await nameOf(user.id);
    const change = await rename(user, 'Na Propria Empresa', customerAdmin);
    const response = await undo(change, customerAdmin);
    expect(response.statusCode, response.body).toBe(200);
    expect(await nameOf(user.id)).toBe(original);
  });

  it('refuses operations without a safe inverse (409 not_undoable)', async () => {
    const created = await send('POST', `/api/users?tenantName=${home.name}`, staff, {
      username: `criado${postgres ? 'pg' : 'pl'}`,
      name: 'Criado Agora',
      email: `criado-${postgres ? 'pg' : 'pl'}@undo.local`,
      password: 'Outra#Senha!Forte-42',
      role_id: (await t.db.selectFrom('roles').select('id').where('name', '=', 'operador').executeTakeFirstOrThrow())
        .id,
    });
    expect(created.statusCode, created.body).toBe(201);
    // The answer offers no undo for a change without an inverse (server/src/audit/trail.ts)…
    expect(created.headers['x-audit-record']).toBeUndefined();
    // …and the record itself, read from the log, is refused.
    const { id } = await t.db
      .selectFrom('audit_log')
      .select('id')
      .where('operation', '=', 'user.create')
      .where('target_id', '=', created.json<{ id: number }>().id)
      .executeTakeFirstOrThrow();
    expect((await record(id)).undoable_until).toBeNull();
    const response = await undo(id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'not_undoable' });
  });

  it('undoes a block, a delete (a restore), a plan, a feature, a department and role permissions', async () => {
    const user = await subject(home);
    const blocked = await send('PATCH', `/api/users/${user.id}?tenantName=${home.name}`, staff, { blocked: true });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect((await undo(Number(blocked.headers['x-audit-record']))).statusCode).toBe(200);
    expect(
      (await t.db.selectFrom('users').select('blocked').where('id', '=', user.id).executeTakeFirstOrThrow()).blocked,
    ).toBe(false);

    const deleted = await send('DELETE', `/api/users/${user.id}?tenantName=${home.name}`, staff);
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    const restore = await undo(Number(deleted.headers['x-audit-record']));
    expect(restore.statusCode, restore.body).toBe(200);
    expect(
      (await t.db.selectFrom('users').select('deleted_at').where('id', '=', user.id).executeTakeFirstOrThrow())
        .deleted_at,
    ).toBeNull();
    expect((await record(restore.json<{ by: number }>().by)).operation).toBe('user.restore');

    const plan = await send('POST', '/api/tenant/set-plan', staff, {
      id: away.id,
      plan: 'enterprise',
      user: 80,
      ticket: 99,
    });
    expect(plan.statusCode, plan.body).toBe(200);
    expect((await undo(Number(plan.headers['x-audit-record']))).statusCode).toBe(200);
    const tenant = await t.db
      .selectFrom('tenants')
      .select(['plan', 'user_limit', 'ticket_limit'])
      .where('id', '=', away.id)
      .executeTakeFirstOrThrow();
    expect(tenant).toEqual({ plan: 'starter', user_limit: 50, ticket_limit: 10 });

    const option = (await t.db.selectFrom('feature_options').select('option').executeTakeFirstOrThrow()).option;
    const feature = await send('POST', '/api/tenant/feature', staff, { option, enabled: true, tenantName: away.name });
    expect(feature.statusCode, feature.body).toBe(200);
    expect((await undo(Number(feature.headers['x-audit-record']))).statusCode).toBe(200);
    const features = await send('GET', `/api/tenant/feature?tenantName=${away.name}`, staff);
    expect(features.json<{ option: string; enabled: boolean }[]>().find((f) => f.option === option)?.enabled).toBe(
      false,
    );

    const department = await t.db
      .insertInto('departments')
      .values({ tenant_id: home.id, name: `Balcão ${postgres ? 'pg' : 'pl'}` })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
    const renamed = await send('PATCH', `/api/departments/${department.id}?tenantName=${home.name}`, customerAdmin, {
      name: 'Caixa',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    // A customer administrador of another tenant does not find it.
    const outsider = await createTestUser(t.db, {
      email: `admin-fora-${postgres ? 'pg' : 'pl'}@undo.local`,
      tenant: away.name,
      role: ADMIN_ROLE,
      originBackoffice: false,
    });
    const departmentChange = Number(renamed.headers['x-audit-record']);
    expect((await undo(departmentChange, await issuedBearer(t, outsider.id))).statusCode).toBe(404);
    expect((await undo(departmentChange, customerAdmin)).statusCode).toBe(200);
    const name = await t.db
      .selectFrom('departments')
      .select('name')
      .where('id', '=', department.id)
      .executeTakeFirstOrThrow();
    expect(name.name).toBe(department.name);

    const roleId = await createTestRole(t.db, `papel-${postgres ? 'pg' : 'pl'}`, ['users']);
    const permissions = await send('POST', '/api/permission/update', staff, {
      roleId,
      permissions: ['users', 'audit'],
    });
    expect(permissions.statusCode, permissions.body).toBe(200);
    expect((await undo(Number(permissions.headers['x-audit-record']))).statusCode).toBe(200);
    const role = await send('GET', `/api/roles/${roleId}`, staff);
    expect(role.json<{ has_permission_routes: string[] }>().has_permission_routes).toEqual(['users']);
  });

  it('undoes a bulk batch as one: all rows or none, a row changed since refuses the whole batch', async () => {
    const blocked = async (id: number) =>
      (await t.db.selectFrom('users').select('blocked').where('id', '=', id).executeTakeFirstOrThrow()).blocked;
    const bulk = async (ids: number[]) => {
      const response = await send('POST', '/api/users/bulk', staff, { action: 'block', ids, dry_run: false });
      expect(response.statusCode, response.body).toBe(200);
      const batch = response.json<{ batch_id: number }>().batch_id;
      // The answer names the batch's record, the one the toast offers to undo.
      expect(Number(response.headers['x-audit-record'])).toBe(batch);
      return batch;
    };
    const [a, b, c] = [await subject(home), await subject(home), await subject(home)];
    const batch = await bulk([a.id, b.id, c.id]);
    expect((await record(batch)).undoable_until).not.toBeNull();
    const undone = await undo(batch);
    expect(undone.statusCode, undone.body).toBe(200);
    expect([await blocked(a.id), await blocked(b.id), await blocked(c.id)]).toEqual([false, false, false]);
    // The undo is a batch of its own, undone as one: blocked again.
    const again = await undo(undone.json<{ by: number }>().by);
    expect(again.statusCode, again.body).toBe(200);
    expect([await blocked(a.id), await blocked(b.id), await blocked(c.id)]).toEqual([true, true, true]);

    const [d, e] = [await subject(home), await subject(home)];
    const second = await bulk([d.id, e.id]);
    const unblocked = await send('PATCH', `/api/users/${e.id}?tenantName=${home.name}`, otherAdmin, { blocked: false });
    expect(unblocked.statusCode, unblocked.body).toBe(200);
    const refused = await undo(second);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(validateResponse('auditUndo', 409, refused.json())).toEqual({ valid: true, errors: [] });
    expect(refused.json()).toMatchObject({
      error: 'undo_conflict',
      conflicts: [{ target_id: e.id, fields: [{ field: 'blocked', recorded: 'true', current: 'false' }] }],
    });
    // None: d stays blocked, nothing records an undo of the batch.
    expect(await blocked(d.id)).toBe(true);
    expect((await record(second)).undone_by).toBeNull();
  });

  // Only on PostgreSQL (PGlite is one connection): declared there alone, so no run reports a skipped test.
  if (postgres)
    describe('concurrency (PostgreSQL)', () => {
      it('of 8 concurrent undos of one record exactly one wins; the rest answer 409 already_undone, no 5xx', async () => {
        const user = await subject(home);
        const original = await nameOf(user.id);
        const change = await rename(user, 'Corrida de Desfazer');
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) => undo(change, i % 2 ? otherAdmin : staff)),
        );
        const statuses = answers.map((a) => a.statusCode).sort();
        expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
        for (const a of answers) if (a.statusCode === 409) expect(a.json()).toMatchObject({ error: 'already_undone' });
        expect(await nameOf(user.id)).toBe(original);
        const reversing = await t.db.selectFrom('audit_log').select('id').where('undo_of', '=', change).execute();
        expect(reversing).toHaveLength(1);
      });

      it('an undo racing an edit: either the undo wins and the edit then applies, or the edit wins and the undo answers undo_conflict', async () => {
        const outcomes = new Set<string>();
        for (let round = 0; round < 12; round += 1) {
          const user = await subject(home);
          const change = await rename(user, `Antes ${round}`);
          const row = await t.db
            .selectFrom('users')
            .select(['username', 'email', 'role_id'])
            .where('id', '=', user.id)
            .executeTakeFirstOrThrow();
          const [undone, edited] = await Promise.all([
            undo(change),
            send('PUT', `/api/users/${user.id}?tenantName=${home.name}`, otherAdmin, {
              ...row,
              name: `Depois ${round}`,
            }),
          ]);
          expect(edited.statusCode, edited.body).toBe(200);
          // Whoever won, the edit is what stays.
          expect(await nameOf(user.id)).toBe(`Depois ${round}`);
          const editRecord = Number(edited.headers['x-audit-record']);
          if (undone.statusCode === 200) {
            // The undo committed before the edit read the row: its record comes first.
            expect(undone.json<{ by: number }>().by).toBeLessThan(editRecord);
            outcomes.add('undo first');
          } else {
            expect(undone.statusCode, undone.body).toBe(409);
            expect(undone.json()).toMatchObject({ error: 'undo_conflict' });
            expect(
              await t.db.selectFrom('audit_log').select('id').where('undo_of', '=', change).execute(),
            ).toHaveLength(0);
            outcomes.add('edit first');
          }
        }
        // Both orders are legal; which ones happened is printed, not required.
        console.info(`undo racing an edit, outcomes seen: ${[...outcomes].join(', ')}`);
      });
    });
});
