import { ADMIN_ROLE } from '../db/catalog';
import { issuedBearer, type TestApp } from '../test-support/app';
import { startAttackApp, type AttackApp, type Send } from '../test-support/attack-kit';
import { createTestRole, createTestUser, type TestUser } from '../test-support/users';

/**
 * What a second reviewer who did not write them found against the list features on a running server
 * (docs/lists.md: bulk actions, versions, undo, views, filters and export), after those of
 * ./lists-attack.test.ts, on the embedded database and on PostgreSQL, each as a request that must now be
 * answered the contract's way:
 *
 * - on PostgreSQL, identical deletes of one user at once all answered 200, each writing a `user.delete`
 *   record and raising the version (each request found the user live before the row's lock, and the
 *   lock did not look again), where one after another the second answers 404; and a save racing the
 *   delete was written to the deleted user, recorded after its `user.delete`;
 * - the undo of a batch answered a caller who may make none of its changes (no `users` at all) with
 *   409 `undo_conflict` naming every row's user, when its rows had been undone one by one: the rows'
 *   names without the rows' authorization;
 * - the undo of a department's (or an instance's, or a connection's) change put the value back in a
 *   tenant deleted since, which the change itself answers 404 (the tenant is not found);
 * - on PostgreSQL, a later chunk of a batch naming users already in it (changed back since) racing the
 *   batch's undo deadlocked: each row locked its user, then the batch; the undo the batch, then the
 *   rows' users. A row failed, or the undo answered 500;
 * - on PostgreSQL, the undos of two batches over the same users, run in opposite orders (block a
 *   selection, then require two-factor of it listed the other way), at once deadlocked: each undo locked
 *   the users in its own batch's order, and one answered 500;
 * - a customer tenant's administrador restored, by undoing it within 10 minutes, a user the provider's staff
 *   had deleted: a restore no customer makes directly (the support desk's is staff-only). A customer now
 *   takes back its own tenant's deletes only.
 */

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: more attacks on lists, bulk, versions and undo', (_label, postgres) => {
  let kit: AttackApp;
  let t: TestApp;
  let staff: { authorization: string };
  let seq = 0;
  const tag = postgres ? 'pg' : 'pl';

  const send: Send = (...args) => kit.send(...args);

  const createTenant = (name: string) => kit.createTenant(name);

  async function subject(tenant: { name: string }, role?: string): Promise<TestUser> {
    seq += 1;
    return createTestUser(t.db, {
      email: `ataque2-${seq}-${tag}@lists.local`,
      tenant: tenant.name,
      ...(role ? { role } : {}),
    });
  }

  const userRecords = (id: number) =>
    t.db
      .selectFrom('audit_log')
      .select(['id', 'operation'])
      .where('target_type', '=', 'user')
      .where('target_id', '=', id)
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    kit = await startAttackApp(postgres);
    ({ t, staff } = kit);
  }, 240_000);

  afterAll(async () => {
    await kit?.stop();
  });

  // Concurrency is PostgreSQL's: PGlite has one connection, so requests there never overlap.
  if (postgres)
    it('identical deletes of one user at once: one 200, the rest 404, one record, the version raised once', async () => {
      const tenant = await createTenant(`ataque2-exclui-${tag}`);
      for (let round = 0; round < 4; round += 1) {
        const user = await subject(tenant);
        const before = await t.db
          .selectFrom('users')
          .select('version')
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow();
        const answers = await Promise.all(
          Array.from({ length: 6 }, () => send('DELETE', `/api/users/${user.id}?tenantName=${tenant.name}`, staff)),
        );
        expect(
          answers.map((a) => a.status).sort(),
          `round ${round}: ${JSON.stringify(answers.map((a) => a.body))}`,
        ).toEqual([200, 404, 404, 404, 404, 404]);
        expect((await userRecords(user.id)).map((r) => r.operation)).toEqual(['user.delete']);
        const after = await t.db
          .selectFrom('users')
          .select(['version', 'deleted_at'])
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow();
        expect(after.deleted_at).not.toBeNull();
        expect(after.version).toBe(before.version + 1);
      }
    }, 120_000);

  if (postgres)
    it('changes racing a delete of their user: none lands on the deleted user, nor is recorded after its delete', async () => {
      const tenant = await createTenant(`ataque2-corrida-${tag}`);
      for (let round = 0; round < 6; round += 1) {
        const user = await subject(tenant);
        const row = await t.db
          .selectFrom('users')
          .select(['username', 'email', 'role_id'])
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow();
        const url = `/api/users/${user.id}?tenantName=${tenant.name}`;
        const answers = await Promise.all([
          send('PUT', url, staff, { ...row, name: `Renomeado ${round}` }),
          send('DELETE', url, staff),
          send('PUT', url, staff, { ...row, name: `Outro ${round}` }),
          send('DELETE', url, staff),
        ]);
        for (const answer of answers) expect([200, 404], JSON.stringify(answer.body)).toContain(answer.status);
        const records = (await userRecords(user.id)).map((r) => r.operation);
        // One delete, and nothing after it: a change answered 200 committed before the delete.
        expect(
          records.filter((o) => o === 'user.delete'),
          `round ${round}: ${records.join()}`,
        ).toHaveLength(1);
        expect(records.at(-1)).toBe('user.delete');
      }
    }, 120_000);

  it('the undo of a batch is refused (403) to a caller who may make none of its changes, naming no row', async () => {
    const tenant = await createTenant(`ataque2-lote-${tag}`);
    const a = await subject(tenant);
    const b = await subject(tenant);
    const run = await send('POST', `/api/users/bulk?tenantName=${tenant.name}`, staff, {
      action: 'block',
      ids: [a.id, b.id],
      dry_run: false,
    });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    const batchId = run.body.batch_id as number;
    await createTestRole(t.db, `so-paineis-${tag}`, ['dashboard-analytics']);
    seq += 1;
    const outsider = await issuedBearer(
      t,
      (
        await createTestUser(t.db, {
          email: `paineis-${seq}-${tag}@lists.local`,
          tenant: 'backoffice',
          role: `so-paineis-${tag}`,
        })
      ).id,
    );
    const whole = await send('POST', `/api/audit/${batchId}/undo`, outsider);
    expect(whole.status, JSON.stringify(whole.body)).toBe(403);
    // Its rows undone one by one by someone who may: the batch's undo still tells the outsider nothing.
    const rows = await t.db.selectFrom('audit_log').select('id').where('batch_id', '=', batchId).execute();
    for (const row of rows) expect((await send('POST', `/api/audit/${row.id}/undo`, staff)).status).toBe(200);
    const after = await send('POST', `/api/audit/${batchId}/undo`, outsider);
    expect(after.status, JSON.stringify(after.body)).toBe(403);
    expect(JSON.stringify(after.body)).not.toContain('ataque2-');
    // Someone who may make the changes reads the conflict as before.
    const staffAnswer = await send('POST', `/api/audit/${batchId}/undo`, staff);
    expect(staffAnswer.status).toBe(409);
    expect(staffAnswer.body).toMatchObject({ error: 'undo_conflict' });
  });

  it("a customer's administrador cannot restore, through undo, a user the provider deleted; its own deletes it may take back", async () => {
    const tenant = await createTenant(`ataque2-restaura-${tag}`);
    seq += 1;
    const customer = await issuedBearer(
      t,
      (
        await createTestUser(t.db, {
          email: `cliente2-${seq}-${tag}@lists.local`,
          tenant: tenant.name,
          role: ADMIN_ROLE,
          originBackoffice: false,
        })
      ).id,
    );
    const byStaff = await subject(tenant);
    const byCustomer = await subject(tenant);
    const staffDelete = await send('DELETE', `/api/users/${byStaff.id}?tenantName=${tenant.name}`, staff);
    expect(staffDelete.status, JSON.stringify(staffDelete.body)).toBe(200);
    // The customer sees the provider's delete in its log, and cannot restore the user directly either.
    const undo = await send('POST', `/api/audit/${Number(staffDelete.headers['x-audit-record'])}/undo`, customer);
    expect(undo.status, JSON.stringify(undo.body)).toBe(403);
    const stillDeleted = await t.db
      .selectFrom('users')
      .select('deleted_at')
      .where('id', '=', byStaff.id)
      .executeTakeFirstOrThrow();
    expect(stillDeleted.deleted_at).not.toBeNull();
    // Its own delete, taken back within the window.
    const ownDelete = await send('DELETE', `/api/users/${byCustomer.id}?tenantName=${tenant.name}`, customer);
    expect(ownDelete.status, JSON.stringify(ownDelete.body)).toBe(200);
    const ownUndo = await send('POST', `/api/audit/${Number(ownDelete.headers['x-audit-record'])}/undo`, customer);
    expect(ownUndo.status, JSON.stringify(ownUndo.body)).toBe(200);
    // The provider may still take its own delete back.
    expect((await send('POST', `/api/audit/${Number(staffDelete.headers['x-audit-record'])}/undo`, staff)).status).toBe(
      200,
    );
  });

  it("the undo of a department's or an instance's change in a tenant deleted since is refused (409 tenant_deleted)", async () => {
    const tenant = await createTenant(`ataque2-depto-${tag}`);
    const created = await send('POST', `/api/departments?tenantName=${tenant.name}`, staff, { name: 'Antes' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const department = created.body.id as number;
    const renamed = await send('PATCH', `/api/departments/${department}?tenantName=${tenant.name}`, staff, {
      name: 'Depois',
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const made = await send('POST', '/api/instance', staff, {
      name: 'Instância antes',
      tenantName: tenant.name,
      isOfficial: false,
      isUnlimited: false,
    });
    expect(made.status, JSON.stringify(made.body)).toBeLessThan(300);
    const instance = await t.db
      .selectFrom('instances')
      .select('id')
      .where('tenant_id', '=', tenant.id)
      .executeTakeFirstOrThrow();
    const changed = await send('POST', '/api/instance/update', staff, {
      id: instance.id,
      tenantName: tenant.name,
      name: 'Instância depois',
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const records = [Number(renamed.headers['x-audit-record']), Number(changed.headers['x-audit-record'])];
    expect((await send('POST', '/api/tenant/delete', staff, { id: tenant.id })).status).toBe(200);

    // The change itself is refused in a deleted tenant: so is its undo, and nothing is written.
    const direct = await send('PATCH', `/api/departments/${department}?tenantName=${tenant.name}`, staff, {
      name: 'Direto',
    });
    expect(direct.status).toBe(404);
    for (const record of records) {
      const undo = await send('POST', `/api/audit/${record}/undo`, staff);
      expect(undo.status, JSON.stringify(undo.body)).toBe(409);
      expect(undo.body).toMatchObject({ error: 'tenant_deleted' });
    }
    const departmentRow = await t.db
      .selectFrom('departments')
      .select(['name', 'version'])
      .where('id', '=', department)
      .executeTakeFirstOrThrow();
    expect(departmentRow).toEqual({ name: 'Depois', version: 2 });
    const instanceRow = await t.db
      .selectFrom('instances')
      .select(['name', 'version'])
      .where('id', '=', instance.id)
      .executeTakeFirstOrThrow();
    expect(instanceRow).toEqual({ name: 'Instância depois', version: 2 });

    // Once the tenant is back, the same undos put the values back.
    expect((await send('POST', '/api/tenant/restore', staff, { id: tenant.id })).status).toBe(200);
    for (const record of records) expect((await send('POST', `/api/audit/${record}/undo`, staff)).status).toBe(200);
    expect(
      (await t.db.selectFrom('departments').select('name').where('id', '=', department).executeTakeFirstOrThrow()).name,
    ).toBe('Antes');
  });
  if (postgres)
    it("a later chunk naming users already in its batch, racing the batch's undo: no row fails, no 5xx", async () => {
      const tenant = await createTenant(`ataque2-impasse-${tag}`);
      const users = await Promise.all(Array.from({ length: 40 }, () => subject(tenant)));
      const ids = users.map((u) => u.id);
      const bulk = (body: Record<string, unknown>) =>
        send('POST', `/api/users/bulk?tenantName=${tenant.name}`, staff, body);
      for (let round = 0; round < 5; round += 1) {
        const first = await bulk({ action: 'block', ids, dry_run: false });
        expect(first.status, JSON.stringify(first.body)).toBe(200);
        const batchId = first.body.batch_id as number;
        // Changed back since (another batch), so the later chunk changes them again under the first batch.
        expect((await bulk({ action: 'unblock', ids, dry_run: false })).status).toBe(200);
        const [chunk, undo] = await Promise.all([
          bulk({ action: 'block', ids, dry_run: false, batch_id: batchId }),
          // A little later, so the undo starts while the chunk's rows run.
          new Promise((resolve) => setTimeout(resolve, 40)).then(() =>
            send('POST', `/api/audit/${batchId}/undo`, staff),
          ),
        ]);
        expect(chunk.status, JSON.stringify(chunk.body)).toBe(200);
        const failed = (chunk.body.results as { outcome: string }[]).filter((r) => r.outcome === 'failed');
        expect(failed, `round ${round}`).toEqual([]);
        expect([200, 409], `round ${round}: ${JSON.stringify(undo.body)}`).toContain(undo.status);
        expect((await bulk({ action: 'unblock', ids, dry_run: false })).status).toBe(200);
      }
    }, 120_000);
  if (postgres)
    it('the undos of two batches over the same users in opposite orders at once: both put back, no 5xx', async () => {
      const tenant = await createTenant(`ataque2-dois-lotes-${tag}`);
      const users = await Promise.all(Array.from({ length: 20 }, () => subject(tenant)));
      const ids = users.map((u) => u.id).sort((a, b) => a - b);
      const bulk = (body: Record<string, unknown>) =>
        send('POST', `/api/users/bulk?tenantName=${tenant.name}`, staff, body);
      for (let round = 0; round < 3; round += 1) {
        const blocked = await bulk({ action: 'block', ids, dry_run: false });
        const required = await bulk({ action: 'require_two_factor', ids: [...ids].reverse(), dry_run: false });
        expect([blocked.status, required.status]).toEqual([200, 200]);
        const undos = await Promise.all(
          [blocked, required].map((run) => send('POST', `/api/audit/${run.body.batch_id as number}/undo`, staff)),
        );
        expect(
          undos.map((u) => u.status),
          `round ${round}: ${JSON.stringify(undos.map((u) => u.body))}`,
        ).toEqual([200, 200]);
        const state = await t.db
          .selectFrom('users')
          .select(['blocked', 'two_factor_enrolment_required'])
          .where('id', 'in', ids)
          .execute();
        expect(state.filter((u) => u.blocked || u.two_factor_enrolment_required)).toEqual([]);
      }
    }, 120_000);
});
