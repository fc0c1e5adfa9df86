import { issuedBearer, type TestApp } from '../test-support/app';
import { startAttackApp, type AttackApp, type Send } from '../test-support/attack-kit';
import { formulaLead, parseCsv } from '../test-support/csv';
import { createTestRole, createTestUser, type TestUser } from '../test-support/users';
import { ADMIN_ROLE } from '../db/catalog';

/**
 * What a reviewer who did not write them found against the list features on a running server
 * (docs/lists.md: bulk actions, versions, undo, views, filters and export), on the embedded database and
 * on PostgreSQL, each as a request that must now be answered the contract's way:
 *
 * - the undo of a user's delete restored the user into a tenant deleted since (the support desk's restore
 *   refuses that: server/src/support/service.ts), leaving a live user in a deleted tenant;
 * - a later chunk of a bulk run was accepted into a batch already undone, so the batch's undo no longer
 *   covered every row of its batch;
 * - on PostgreSQL, identical bulk deletes at once answered some row `refused` `not_found` (a run found it
 *   live, then the delete's own live lookup missed it, deleted by the other run meanwhile) instead of
 *   `unchanged`: the row is deleted, as asked (the flake of server/src/bulk/bulk.api.test.ts's race);
 * - on PostgreSQL, later chunks of a batch racing the batch's undo committed rows into the batch after the
 *   undo had read its rows: the batch answered undone while those users stayed blocked;
 * - on PostgreSQL, the support desk's restore of a user and the undo of that user's delete at once
 *   answered 500 (a deadlock: the undo locked the user, then the tenant; the desk the tenant, then the user).
 */

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: attacks on lists, bulk, versions and undo', (_label, postgres) => {
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
      email: `ataque-${seq}-${tag}@lists.local`,
      tenant: tenant.name,
      ...(role ? { role } : {}),
    });
  }

  const userRow = (id: number) =>
    t.db
      .selectFrom('users')
      .select(['id', 'name', 'blocked', 'deleted_at', 'version'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    kit = await startAttackApp(postgres);
    ({ t, staff } = kit);
  }, 240_000);

  afterAll(async () => {
    await kit?.stop();
  });

  it('the undo of a user delete does not restore the user into a tenant deleted since (409 tenant_deleted)', async () => {
    const tenant = await createTenant(`ataque-excluida-${tag}`);
    const user = await subject(tenant);
    const removed = await send('DELETE', `/api/users/${user.id}?tenantName=${tenant.name}`, staff);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const record = Number(removed.headers['x-audit-record']);
    expect(record).toBeGreaterThan(0);
    const closed = await send('POST', '/api/tenant/delete', staff, { id: tenant.id });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);

    const undo = await send('POST', `/api/audit/${record}/undo`, staff);
    expect(undo.status, JSON.stringify(undo.body)).toBe(409);
    expect(undo.body).toMatchObject({ error: 'tenant_deleted' });
    expect((await userRow(user.id)).deleted_at).not.toBeNull();
    // Once the tenant is back, the same undo puts the user back.
    expect((await send('POST', '/api/tenant/restore', staff, { id: tenant.id })).status).toBe(200);
    const again = await send('POST', `/api/audit/${record}/undo`, staff);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((await userRow(user.id)).deleted_at).toBeNull();
  });

  it('a batch undone takes no more chunks (400 batch_id), so its undo covers every row it holds', async () => {
    const tenant = await createTenant(`ataque-lote-${tag}`);
    const a = await subject(tenant);
    const b = await subject(tenant);
    const bulk = (body: Record<string, unknown>) =>
      send('POST', `/api/users/bulk?tenantName=${tenant.name}`, staff, body);
    const first = await bulk({ action: 'block', ids: [a.id], dry_run: false, total: 2 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const batchId = first.body.batch_id as number;
    const undone = await send('POST', `/api/audit/${batchId}/undo`, staff);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect((await userRow(a.id)).blocked).toBe(false);

    const late = await bulk({ action: 'block', ids: [b.id], dry_run: false, batch_id: batchId });
    expect(late.status, JSON.stringify(late.body)).toBe(400);
    expect(JSON.stringify(late.body)).toContain('batch_id');
    expect((await userRow(b.id)).blocked).toBe(false);
    const rows = await t.db.selectFrom('audit_log').select('id').where('batch_id', '=', batchId).execute();
    expect(rows).toHaveLength(1);
  });
  // Concurrency is PostgreSQL's: PGlite has one connection, so requests there never overlap.
  if (postgres)
    it('identical bulk deletes at once: each row changed once and otherwise unchanged, never refused, no 5xx', async () => {
      const tenant = await createTenant(`ataque-corrida-${tag}`);
      const targets = await Promise.all(Array.from({ length: 30 }, () => subject(tenant)));
      const ids = targets.map((u) => u.id);
      const answers = await Promise.all(
        [0, 1, 2, 3].map(() =>
          send('POST', `/api/users/bulk?tenantName=${tenant.name}`, staff, { action: 'delete', ids, dry_run: false }),
        ),
      );
      for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      for (const id of ids) {
        const rows = answers.map((a) =>
          (a.body.results as { id: number; outcome: string; reason?: string }[]).find((r) => r.id === id),
        );
        expect(rows.map((r) => r?.outcome).sort(), `${id}: ${JSON.stringify(rows)}`).toEqual([
          'changed',
          'unchanged',
          'unchanged',
          'unchanged',
        ]);
      }
    }, 120_000);
  if (postgres)
    it('a batch undone while later chunks of it run: every row the batch holds is undone, or the chunk refused', async () => {
      const tenant = await createTenant(`ataque-desfaz-lote-${tag}`);
      const bulk = (body: Record<string, unknown>) =>
        send('POST', `/api/users/bulk?tenantName=${tenant.name}`, staff, body);
      for (let round = 0; round < 4; round += 1) {
        const first = await subject(tenant);
        const opened = await bulk({ action: 'block', ids: [first.id], dry_run: false, total: 25 });
        expect(opened.status, JSON.stringify(opened.body)).toBe(200);
        const batchId = opened.body.batch_id as number;
        const chunks = await Promise.all(
          Array.from({ length: 4 }, () => Promise.all(Array.from({ length: 6 }, () => subject(tenant)))),
        );
        const answers = await Promise.all([
          ...chunks.map((users, i) =>
            // Staggered a little so some chunks start before the undo and some after it.
            new Promise((resolve) => setTimeout(resolve, i * 5)).then(() =>
              bulk({ action: 'block', ids: users.map((u) => u.id), dry_run: false, batch_id: batchId }),
            ),
          ),
          send('POST', `/api/audit/${batchId}/undo`, staff),
        ]);
        for (const answer of answers) expect([200, 400, 409], JSON.stringify(answer.body)).toContain(answer.status);
        const undo = answers.at(-1);
        if (undo?.status !== 200) continue;
        // The batch is undone: no row it holds may be left as the batch made it.
        const rows = await t.db
          .selectFrom('audit_log as r')
          .leftJoin('audit_log as u', 'u.undo_of', 'r.id')
          .select(['r.id', 'r.target_id', 'u.id as undone_by'])
          .where('r.batch_id', '=', batchId)
          .execute();
        expect(
          rows.filter((r) => r.undone_by === null),
          `batch ${batchId} round ${round}`,
        ).toEqual([]);
        const blocked = await t.db
          .selectFrom('users')
          .select('id')
          .where(
            'id',
            'in',
            rows.map((r) => r.target_id ?? 0),
          )
          .where('blocked', '=', true)
          .execute();
        expect(blocked).toEqual([]);
      }
    }, 120_000);
  if (postgres)
    it('undos of one batch and of its rows at once: one winner per record, the rest 409, no 5xx', async () => {
      const tenant = await createTenant(`ataque-desfaz-corrida-${tag}`);
      const users = await Promise.all(Array.from({ length: 5 }, () => subject(tenant)));
      const run = await send('POST', `/api/users/bulk?tenantName=${tenant.name}`, staff, {
        action: 'block',
        ids: users.map((u) => u.id),
        dry_run: false,
      });
      expect(run.status, JSON.stringify(run.body)).toBe(200);
      const batchId = run.body.batch_id as number;
      const rowRecords = await t.db.selectFrom('audit_log').select('id').where('batch_id', '=', batchId).execute();
      expect(rowRecords).toHaveLength(5);
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, () => send('POST', `/api/audit/${batchId}/undo`, staff)),
        ...rowRecords.slice(0, 2).map((r) => send('POST', `/api/audit/${r.id}/undo`, staff)),
      ]);
      for (const answer of answers) expect([200, 409], JSON.stringify(answer.body)).toContain(answer.status);
      const batchAnswers = answers.slice(0, 6);
      const rowAnswers = answers.slice(6);
      const batchWon = batchAnswers.filter((a) => a.status === 200).length;
      expect(batchWon).toBeLessThanOrEqual(1);
      for (const refused of batchAnswers.filter((a) => a.status === 409))
        expect(['already_undone', 'undo_conflict']).toContain(refused.body.error);
      const state = await t.db
        .selectFrom('users')
        .select(['id', 'blocked'])
        .where(
          'id',
          'in',
          users.map((u) => u.id),
        )
        .orderBy('id')
        .execute();
      if (batchWon === 1) {
        // The batch put every row back; the single undos found their record undone.
        expect(state.every((u) => !u.blocked)).toBe(true);
        for (const answer of rowAnswers) expect(answer.body).toMatchObject({ error: 'already_undone' });
      } else {
        // A row undone on its own refuses the whole batch: only those rows are back.
        for (const answer of rowAnswers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(state.filter((u) => !u.blocked)).toHaveLength(2);
      }
      // Every record is undone at most once.
      const undos = await t.db
        .selectFrom('audit_log')
        .select('undo_of')
        .where('undo_of', 'in', [batchId, ...rowRecords.map((r) => r.id)])
        .execute();
      expect(new Set(undos.map((u) => u.undo_of)).size).toBe(undos.length);
    }, 120_000);
  it('exports hostile names as text: no cell a spreadsheet would run, every name back intact, q matches literally', async () => {
    const tenant = await createTenant(`ataque-csv-${tag}`);
    const names = [
      '=HYPERLINK("http://x","y")',
      '+55 11 9999',
      '-2+3',
      '@SUM(A1)',
      '\tTab',
      '\rCR;"aspas"',
      ' =1+1',
      '\u200B=1+1',
      '\u00A0@SUM(1)',
      '\uFF1DCMD()',
      'São Paulo 😀 \u05E9\u05DC\u05D5\u05DD',
      '100%_\\x',
      'y'.repeat(10_000),
    ];
    const created = [];
    for (const name of names) {
      seq += 1;
      created.push(await createTestUser(t.db, { email: `csv-${seq}-${tag}@lists.local`, tenant: tenant.name, name }));
    }
    const answer = await t.app.fastify.inject({
      method: 'GET',
      url: `/api/users/export?tenantName=${tenant.name}`,
      headers: staff,
    });
    expect(answer.statusCode, answer.body.slice(0, 300)).toBe(200);
    const [heading, ...rows] = parseCsv(answer.body.replace(/^\uFEFF/, ''));
    expect(heading?.[1]).toBe('nome');
    expect(rows).toHaveLength(names.length);
    for (const row of rows) for (const cell of row) expect(formulaLead(cell), JSON.stringify(cell)).toBeNull();
    const exported = new Map(rows.map((r) => [Number(r[0]), r[1] ?? '']));
    for (const [i, user] of created.entries()) {
      const cell = exported.get(user.id) ?? '';
      // Nothing dropped: the cell is the name, or `'` and the name.
      expect([names[i], `'${names[i]}`]).toContain(cell);
    }
    const page = async (q: string) =>
      (await send('GET', `/api/users/page?tenantName=${tenant.name}&q=${encodeURIComponent(q)}&limit=100`, staff)).body
        .data as { name: string }[];
    expect((await page('%_')).map((u) => u.name)).toEqual(['100%_\\x']);
    expect((await page('\\')).map((u) => u.name)).toEqual(['100%_\\x']);
    const past = await send('GET', `/api/users/page?tenantName=${tenant.name}&page=999&limit=100`, staff);
    expect(past.body).toMatchObject({ data: [], total: names.length });
  });
  it('one GraphQL document saving a user twice under aliases with one version: the first wins, the second is STALE', async () => {
    const tenant = await createTenant(`ataque-alias-${tag}`);
    const user = await subject(tenant);
    const { version } = await userRow(user.id);
    const answer = await send('POST', `/${tenant.name}/graphql`, staff, {
      query: `mutation { a: updateUser(id: ${user.id}, name: "Primeiro", version: ${version}) { id version } b: updateUser(id: ${user.id}, name: "Segundo", version: ${version}) { id version } }`,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // `updateUser` is non-null: one field's error nulls the whole `data`, but `a` ran and committed first.
    expect(answer.body.data).toBeNull();
    const errors = answer.body.errors as { path: string[]; extensions: { code: string; version: number } }[];
    expect(errors.map((e) => [e.path.join('.'), e.extensions.code, e.extensions.version])).toEqual([
      ['b', 'STALE', version + 1],
    ]);
    expect(await userRow(user.id)).toMatchObject({ name: 'Primeiro', version: version + 1 });
  });

  if (postgres)
    it('REST and GraphQL saves of one user with one version at once: exactly one wins, the rest stale, no 5xx', async () => {
      const tenant = await createTenant(`ataque-rest-gql-${tag}`);
      const user = await subject(tenant);
      const row = await t.db
        .selectFrom('users')
        .select(['username', 'email', 'role_id', 'version'])
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          i % 2 === 0
            ? send('PUT', `/api/users/${user.id}?tenantName=${tenant.name}`, staff, {
                username: row.username,
                email: row.email,
                role_id: row.role_id,
                name: `REST ${i}`,
                version: row.version,
              }).then((a) => (a.status === 200 ? 'won' : a.status === 409 && a.body.error === 'stale' ? 'stale' : a))
            : send('POST', `/${tenant.name}/graphql`, staff, {
                query: `mutation { updateUser(id: ${user.id}, name: "GQL ${i}", version: ${row.version}) { version } }`,
              }).then((a) => {
                const code = (a.body.errors as { extensions?: { code?: string } }[] | undefined)?.[0]?.extensions?.code;
                return a.status === 200 && code === undefined ? 'won' : code === 'STALE' ? 'stale' : a;
              }),
        ),
      );
      expect(
        answers.filter((a) => a === 'won'),
        JSON.stringify(answers),
      ).toHaveLength(1);
      expect(answers.filter((a) => a === 'stale')).toHaveLength(7);
      expect((await userRow(user.id)).version).toBe(row.version + 1);
    }, 120_000);
  if (postgres)
    it("the support desk's restore and the undo of the delete of one user at once: one restores, the other 409, no 5xx", async () => {
      const tenant = await createTenant(`ataque-restaura-${tag}`);
      for (let round = 0; round < 6; round += 1) {
        const user = await subject(tenant);
        const removed = await send('DELETE', `/api/users/${user.id}?tenantName=${tenant.name}`, staff);
        expect(removed.status, JSON.stringify(removed.body)).toBe(200);
        const record = Number(removed.headers['x-audit-record']);
        const [desk, undo] = await Promise.all([
          send('POST', `/api/support/users/${user.id}/restore`, staff, {}),
          send('POST', `/api/audit/${record}/undo`, staff),
        ]);
        expect([desk.status, undo.status].sort(), `round ${round}: ${JSON.stringify([desk.body, undo.body])}`).toEqual([
          200, 409,
        ]);
        expect((await userRow(user.id)).deleted_at).toBeNull();
      }
    }, 120_000);
  it('an undo needs what the change needed: users-only on role permissions, a customer on its plan, a non-administrador on an administrador, oneself', async () => {
    await createTestRole(t.db, `so-usuarios-${tag}`, ['users', 'audit']);
    const usersOnlyUser = await createTestUser(t.db, {
      email: `so-usuarios-${tag}@lists.local`,
      tenant: 'backoffice',
      role: `so-usuarios-${tag}`,
    });
    const usersOnly = await issuedBearer(t, usersOnlyUser.id);
    const undo = (id: number, who: { authorization: string }) => send('POST', `/api/audit/${id}/undo`, who);

    // A role's permissions (staff with roles-edit only): refused to one holding `users`.
    const roleId = await createTestRole(t.db, `alvo-papel-${tag}`, ['audit']);
    const granted = await send('POST', '/api/permission/update', staff, { roleId, permissions: ['audit', 'users'] });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect((await undo(Number(granted.headers['x-audit-record']), usersOnly)).status).toBe(403);

    // A tenant's plan (staff only): refused to the tenant's own administrador.
    const tenant = await createTenant(`ataque-plano-${tag}`);
    seq += 1;
    const customer = await createTestUser(t.db, {
      email: `cliente-${seq}-${tag}@lists.local`,
      tenant: tenant.name,
      role: ADMIN_ROLE,
      originBackoffice: false,
    });
    const plan = await send('POST', '/api/tenant/set-plan', staff, {
      id: tenant.id,
      plan: 'enterprise',
      user: 60,
      ticket: 100,
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    expect((await undo(Number(plan.headers['x-audit-record']), await issuedBearer(t, customer.id))).status).toBe(403);

    // A change to an administrador: refused to a non-administrador.
    seq += 1;
    const admin = await createTestUser(t.db, {
      email: `admin-${seq}-${tag}@lists.local`,
      tenant: 'backoffice',
      role: ADMIN_ROLE,
    });
    const row = await t.db
      .selectFrom('users')
      .select(['username', 'email', 'role_id', 'name'])
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    const renamed = await send('PUT', `/api/users/${admin.id}`, staff, { ...row, name: 'Outro Nome' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await undo(Number(renamed.headers['x-audit-record']), usersOnly)).status).toBe(403);

    // Someone else unblocked me: my undo of it would block myself (409), in a batch too (all or none).
    const blocked = await send('POST', '/api/users/bulk', staff, {
      action: 'block',
      ids: [usersOnlyUser.id],
      dry_run: false,
    });
    expect(blocked.status).toBe(200);
    const unblocked = await send('POST', '/api/users/bulk', staff, {
      action: 'unblock',
      ids: [usersOnlyUser.id],
      dry_run: false,
    });
    const mine = await issuedBearer(t, usersOnlyUser.id);
    const self = await undo(unblocked.body.batch_id as number, mine);
    expect(self.status, JSON.stringify(self.body)).toBe(409);
    expect(self.body.message).toBe('You cannot block yourself');
    expect((await userRow(usersOnlyUser.id)).blocked).toBe(false);
    expect(
      (await t.db.selectFrom('roles').select('version').where('id', '=', roleId).executeTakeFirstOrThrow()).version,
    ).toBe(2);
  });
});
