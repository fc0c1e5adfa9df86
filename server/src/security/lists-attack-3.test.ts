import { sql } from 'kysely';
import type { TestApp } from '../test-support/app';
import { startAttackApp, type AttackApp, type Send } from '../test-support/attack-kit';
import { createTestRole, createTestUser, type TestUser } from '../test-support/users';
import { userListQueries } from '../users/list';

/**
 * What a third reviewer who did not write them found against the list features on a running server
 * (docs/lists.md: audit records named in GraphQL answers, the users list's group walk, the conflict notice's
 * versions), after those of ./lists-attack.test.ts and ./lists-attack-2.test.ts, on the embedded database
 * and on PostgreSQL:
 *
 * - a department-sorted page of a tenant with thousands of departments (a customer's administrador may
 *   create as many as it likes) ran one query per department before its page was full: 5,000 departments
 *   and users without one, sorted descending, took 5,001 queries (1.9 s on PostgreSQL, 20 such pages at
 *   once 15 s, every other request waiting for the pool), where the joined sort is one query;
 * - on PostgreSQL, a tenant's deletion racing the undo of a bulk block of its users deadlocked (the
 *   deletion answered 500 after the tenant was deleted): the undo locks the users by id, the deletion's
 *   end of every session updated them all in the table's order.
 *
 * And what held, kept as tests: every page of the role and department sorts equals the joined ORDER BY
 * (roles sharing a display name, names differing in case, accents or a trailing space, no department,
 * filters, search, past the last page); 20 changes at once on PostgreSQL each name only their own record;
 * feature saves at once with one version (one wins, the rest stale) and a burst without (no 5xx).
 */

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: a third attack on lists, undo and audit-record naming', (_label, postgres) => {
  let kit: AttackApp;
  let t: TestApp;
  let staff: { authorization: string };
  let seq = 0;
  const tag = postgres ? 'pg' : 'pl';

  const send: Send = (...args) => kit.send(...args);

  const createTenant = (name: string) => kit.createTenant(name, 500);

  async function subject(tenant: { name: string }, role?: string, name?: string): Promise<TestUser> {
    seq += 1;
    return createTestUser(t.db, {
      email: `ataque3-${seq}-${tag}@lists.local`,
      tenant: tenant.name,
      ...(role ? { role } : {}),
      ...(name ? { name } : {}),
    });
  }

  beforeAll(async () => {
    kit = await startAttackApp(postgres);
    ({ t, staff } = kit);
  }, 240_000);

  afterAll(async () => {
    await kit?.stop();
  });

  if (postgres)
    it("a tenant's deletion racing the undo of a bulk block of its users: no 5xx, the undo all or nothing, the tenant deleted and its tokens revoked", async () => {
      const tenant = await createTenant(`ataque3-fecha-${tag}`);
      const users: TestUser[] = [];
      for (let i = 0; i < 8; i += 1) users.push(await subject(tenant));
      for (let round = 0; round < 8; round += 1) {
        // Listed last to first: each row's new version lands in the table in that order, so a scan of the
        // tenant's users meets them in another order than the undo's (by id).
        const run = await send('POST', `/api/users/bulk?tenantName=${tenant.name}`, staff, {
          action: 'block',
          ids: users.map((u) => u.id).reverse(),
          dry_run: false,
        });
        expect(run.status, JSON.stringify(run.body)).toBe(200);
        const tokenVersions = async () =>
          (
            await t.db
              .selectFrom('users')
              .select('token_version')
              .where('tenant_id', '=', tenant.id)
              .orderBy('id')
              .execute()
          ).map((u) => u.token_version);
        const before = await tokenVersions();
        const [undo, removed] = await Promise.all([
          send('POST', `/api/audit/${String(run.body.batch_id)}/undo`, staff),
          send('POST', '/api/tenant/delete', staff, { id: tenant.id }),
        ]);
        expect(removed.status, `round ${round}: ${JSON.stringify(removed.body)}`).toBe(200);
        // Whichever commits first: the undo before the deletion puts every row back; after it, the undo is
        // refused whole (409 tenant_deleted: a deleted tenant's users take no change) and every row stays.
        const versions = await t.db.selectFrom('users').select('blocked').where('tenant_id', '=', tenant.id).execute();
        if (undo.status === 200) expect(versions.every((u) => !u.blocked)).toBe(true);
        else {
          expect(undo.status, `round ${round}: ${JSON.stringify(undo.body)}`).toBe(409);
          expect(undo.body).toMatchObject({ error: 'tenant_deleted' });
          expect(versions.every((u) => u.blocked)).toBe(true);
        }
        // Every session of the tenant's users ended: each token version went up.
        const after = await tokenVersions();
        expect(after.every((v, i) => v > (before[i] ?? v))).toBe(true);
        expect((await send('POST', '/api/tenant/restore', staff, { id: tenant.id })).status).toBe(200);
        // A refused undo is taken again once the tenant is back, so the next round blocks unblocked users.
        if (undo.status !== 200)
          expect((await send('POST', `/api/audit/${String(run.body.batch_id)}/undo`, staff)).status).toBe(200);
      }
    }, 120_000);

  it("a deleted tenant's users take no change over REST either (as over GraphQL), nor an undo of one", async () => {
    const tenant = await createTenant(`ataque3-excluida-${tag}`);
    const user = await subject(tenant);
    const other = await subject(tenant);
    const renamed = await send('PUT', `/api/users/${user.id}`, staff, { name: 'Antes da exclusão' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const record = Number(renamed.headers['x-audit-record']);
    expect((await send('POST', '/api/tenant/delete', staff, { id: tenant.id })).status).toBe(200);
    const versionBefore = (
      await t.db.selectFrom('users').select('version').where('id', '=', user.id).executeTakeFirstOrThrow()
    ).version;

    // REST names no tenant here: the user is not found, as GraphQL finds no deleted tenant on its path.
    const put = await send('PUT', `/api/users/${user.id}`, staff, { name: 'Depois da exclusão' });
    expect(put.status, JSON.stringify(put.body)).toBe(404);
    const gql = await t.app.fastify.inject({
      method: 'POST',
      url: `/${tenant.name}/graphql`,
      headers: staff,
      payload: { query: `mutation { updateUser(id: ${user.id}, name: "Depois da exclusão") { id } }` },
    });
    expect(JSON.stringify(gql.json())).not.toContain('"data":{"updateUser":{');
    const bulk = await send('POST', '/api/users/bulk', staff, { action: 'block', ids: [other.id], dry_run: false });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    expect(JSON.stringify(bulk.body)).toContain('not_found');
    // The undo of the change made before the deletion is refused while the tenant is deleted.
    const undo = await send('POST', `/api/audit/${record}/undo`, staff);
    expect(undo.status, JSON.stringify(undo.body)).toBe(409);
    expect(undo.body).toMatchObject({ error: 'tenant_deleted' });
    const after = await t.db
      .selectFrom('users')
      .select(['id', 'name', 'version', 'blocked'])
      .where('id', 'in', [user.id, other.id])
      .execute();
    expect(after.find((row) => row.id === user.id)).toMatchObject({
      name: 'Antes da exclusão',
      version: versionBefore,
    });
    expect(after.find((row) => row.id === other.id)?.blocked).toBe(false);
    // Restored, the tenant's users take changes and the undo again.
    expect((await send('POST', '/api/tenant/restore', staff, { id: tenant.id })).status).toBe(200);
    expect((await send('POST', `/api/audit/${record}/undo`, staff)).status).toBe(200);
  });

  it('the role and department sorts (group walk) give every page of the joined ORDER BY, with its total', async () => {
    const tenant = await createTenant(`ataque3-ordem-${tag}`);
    const other = await createTenant(`ataque3-outro-${tag}`);
    const roleNames = ['Igual', 'igual', 'Ígual', 'Igual ', 'zz', 'Aa'];
    const roles: string[] = [];
    for (const [i, dn] of roleNames.entries()) {
      const name = `r3-${i}-${tag}`;
      const id = await createTestRole(t.db, name, ['users']);
      await t.db.updateTable('roles').set({ display_name: dn }).where('id', '=', id).execute();
      roles.push(name);
    }
    // Two roles sharing a display name exactly.
    const twin = await createTestRole(t.db, `r3-twin-${tag}`, ['users']);
    await t.db.updateTable('roles').set({ display_name: 'Igual' }).where('id', '=', twin).execute();
    roles.push(`r3-twin-${tag}`);
    const depNames = ['Vendas', 'Vendas ', 'B', '', ' ', 'Ávila', 'a'];
    const deps: number[] = [];
    for (const dn of depNames)
      deps.push(
        (
          await t.db
            .insertInto('departments')
            .values({ tenant_id: tenant.id, name: dn })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    const foreign = (
      await t.db
        .insertInto('departments')
        .values({ tenant_id: other.id, name: 'Alheio' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const names = ['Ana', 'ana', 'Ána', 'Bruno', 'Bruno', 'carla', 'Zé', 'zé', ' Zé', 'Élcio'];
    for (let i = 0; i < 61; i += 1) {
      const u = await subject(tenant, roles[i % roles.length], names[i % names.length]);
      const dep = i % 9 === 0 ? null : deps[i % deps.length];
      await t.db
        .updateTable('users')
        .set({ department_id: dep ?? null, blocked: i % 3 === 0 })
        .where('id', '=', u.id)
        .execute();
    }
    const deleted = await subject(tenant);
    await t.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', deleted.id).execute();
    void foreign;
    for (const sort of ['role', 'department', 'name', 'email', 'presence'] as const)
      for (const dir of ['asc', 'desc'] as const)
        for (const extra of ['', '&blocked=true', '&q=an', `&department=${deps[0]}`, '&department=none']) {
          const key =
            sort === 'role'
              ? sql`r.display_name`
              : sort === 'department'
                ? sql`coalesce(d.name, '')`
                : sort === 'presence'
                  ? sql`(not u.is_connected)`
                  : sql.ref(`u.${sort}`);
          const d = sql.raw(dir);
          const where =
            extra === '&blocked=true'
              ? sql`and u.blocked`
              : extra === '&q=an'
                ? sql`and u.support_search like '%an%'`
                : extra === '&department=none'
                  ? sql`and u.department_id is null`
                  : extra
                    ? sql`and u.department_id = ${deps[0]}`
                    : sql``;
          const { rows } = await sql<{
            id: number;
          }>`select u.id from users u join roles r on r.id = u.role_id left join departments d on d.id = u.department_id
             where u.tenant_id = ${tenant.id} and u.deleted_at is null ${where} order by ${key} ${d}, u.name ${d}, u.id ${d}`.execute(
            t.db,
          );
          const expected = rows.map((r) => r.id);
          const got: number[] = [];
          for (let page = 1; page <= 12; page += 1) {
            const a = await send(
              'GET',
              `/api/users/page?tenantName=${tenant.name}&sort=${sort}&dir=${dir}&page=${page}&limit=7${extra}`,
              staff,
            );
            expect(a.status, JSON.stringify(a.body)).toBe(200);
            expect(a.body.total, `${sort} ${dir} ${extra}`).toBe(expected.length);
            got.push(...(a.body.data as { id: number }[]).map((u) => u.id));
          }
          expect(got, `${sort} ${dir} ${extra}`).toEqual(expected);
        }
  }, 240_000);

  if (postgres)
    it('20 changes at once (GraphQL with and without alias, REST bulk): each answer names only its own record', async () => {
      const tenant = await createTenant(`ataque3-gql-${tag}`);
      const users: TestUser[] = [];
      for (let i = 0; i < 20; i += 1) users.push(await subject(tenant));
      for (let round = 0; round < 3; round += 1) {
        const answers = await Promise.all(
          users.map((u, i) =>
            i % 3 === 0
              ? send('POST', `/${tenant.name}/graphql`, staff, {
                  query: `mutation { updateUser(id: ${u.id}, name: "N${round}-${i}") { id } }`,
                })
              : i % 3 === 1
                ? send('POST', `/api/users/bulk?tenantName=${tenant.name}`, staff, {
                    action: round % 2 === 0 ? 'block' : 'unblock',
                    ids: [u.id],
                    dry_run: false,
                  })
                : send('POST', `/${tenant.name}/graphql`, staff, {
                    query: `mutation { x: updateUser(id: ${u.id}, name: "M${round}-${i}") { id } }`,
                  }),
          ),
        );
        for (const [i, a] of answers.entries()) {
          expect(a.status, JSON.stringify(a.body)).toBeLessThan(300);
          const header = Number(a.headers['x-audit-record']);
          const ext = (a.body.extensions as { auditRecords?: Record<string, number> } | undefined)?.auditRecords;
          if (i % 3 !== 1) expect(Object.values(ext ?? {})).toEqual([header]);
          const rec = await t.db
            .selectFrom('audit_log')
            .select(['target_id', 'target_type'])
            .where('id', '=', header)
            .executeTakeFirstOrThrow();
          if (i % 3 !== 1) expect(rec, `${i}`).toEqual({ target_id: users[i]?.id, target_type: 'user' });
        }
      }
    }, 120_000);

  if (postgres)
    it('feature saves at once with one version: one 200, the rest 409 stale; a burst without a version: no 5xx', async () => {
      const tenant = await createTenant(`ataque3-recursos-${tag}`);
      const { features_version: version } = await t.db
        .selectFrom('tenants')
        .select('features_version')
        .where('id', '=', tenant.id)
        .executeTakeFirstOrThrow();
      const options = ['campaigns', 'chatbot', 'reports', 'webhooks', 'campaigns', 'chatbot', 'reports', 'webhooks'];
      const answers = await Promise.all(
        options.map((option) =>
          send('POST', '/api/tenant/feature', staff, { option, enabled: true, tenantName: tenant.name, version }),
        ),
      );
      expect(answers.map((a) => (a.status === 409 ? String(a.body.error) : a.status)).sort()).toEqual([
        200,
        ...Array.from({ length: 7 }, () => 'stale'),
      ]);
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          send('POST', '/api/tenant/feature', staff, { option: 'chat', enabled: i % 2 === 0, tenantName: tenant.name }),
        ),
      );
      expect(burst.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 200));
    }, 120_000);

  it("a tenant's thousands of departments: a department-sorted page reads a few queries, not one per department", async () => {
    const tenant = await createTenant(`ataque3-deptos-${tag}`);
    // As many departments as a customer's administrador may create (there is no limit), none with a user but one.
    await sql`insert into departments (tenant_id, name) select ${tenant.id}, 'Depto ' || g from generate_series(1, 2000) g`.execute(
      t.db,
    );
    const one = await t.db
      .selectFrom('departments')
      .select('id')
      .where('tenant_id', '=', tenant.id)
      .where('name', '=', 'Depto 1500')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < 30; i += 1) {
      const user = await subject(tenant);
      if (i % 3 === 0)
        await t.db.updateTable('users').set({ department_id: one.id }).where('id', '=', user.id).execute();
    }
    let queries = 0;
    const counted = t.db.withPlugin({
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    for (const dir of ['asc', 'desc'] as const) {
      const { rows } = await sql<{
        id: number;
      }>`select u.id from users u left join departments d on d.id = u.department_id
        where u.tenant_id = ${tenant.id} and u.deleted_at is null
        order by coalesce(d.name, '') ${sql.raw(dir)}, u.name ${sql.raw(dir)}, u.id ${sql.raw(dir)}`.execute(t.db);
      const expected = rows.map((r) => r.id);
      for (const [page, limit] of [
        [1, 25],
        [2, 8],
        [4, 8],
        [9, 5],
      ] as const) {
        queries = 0;
        const ids = await userListQueries(counted, tenant.id, {}, { sort: 'department', dir }).pageIds(page, limit);
        expect(ids, `${dir} page ${page}`).toEqual(expected.slice((page - 1) * limit, page * limit));
        // The groups, their counts, and the rows of the (at most two) groups the page shows.
        expect(queries, `${dir} page ${page}`).toBeLessThanOrEqual(4);
      }
    }
  }, 120_000);
});
