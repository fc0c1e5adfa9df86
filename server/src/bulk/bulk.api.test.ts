import { sql } from 'kysely';
import { ADMIN_ROLE, OPERATOR_ROLE } from '../db/catalog';
import { issuedBearer, startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestRole, createTestUser, type TestUser } from '../test-support/users';
import { cnpjCheckDigits } from '../../../src/domain/cnpj';

/**
 * Bulk actions (docs/lists.md, Bulk actions; contracts/openapi.yaml `userBulk`, `tenantFeatureBulk`) on
 * PGlite and PostgreSQL, as an attacker would try them: rows of another tenant (refused as `not_found`,
 * exactly as an id that does not exist), an administrador acted on by a non-administrador, the caller's
 * own account, deleted records, another user's or another action's or an old batch, 101 ids. A dry run
 * writes nothing; a real run writes the batch's record and one per changed row, each naming the batch.
 * A fault injected for one row fails that row only, and its retry in the same batch changes it. On
 * PostgreSQL two identical runs at once change each row once, with no 5xx.
 */
type Json = Record<string, unknown>;
interface Result {
  id: number;
  name: string | null;
  outcome: string;
  reason?: string;
  message?: string;
}
interface Answer {
  batch_id: number | null;
  results: Result[];
}

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: bulk actions', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let staff: { authorization: string };
  let staffUser: TestUser;
  let helper: { authorization: string };
  let helperUser: TestUser;
  let customer: { authorization: string };
  let customerUser: TestUser;
  let n = 0;
  const engine = postgres ? 'pg' : 'lite';

  beforeAll(async () => {
    cluster = postgres ? await startThrowawayPostgres() : undefined;
    t = await startTestApp({
      ...(cluster ? { databaseUrl: cluster.url } : {}),
      seed: { days: 1 },
      config: { faultInjection: true },
    });
    staffUser = await createTestUser(t.db, {
      email: `bulk-staff-${engine}@demo.local`,
      tenant: 'backoffice',
      role: ADMIN_ROLE,
    });
    staff = await issuedBearer(t, staffUser.id);
    // Staff holding `users` only: may act on users holding no more than that, never on an administrador.
    await createTestRole(t.db, `bulk-helper-${engine}`, ['users']);
    await createTestRole(t.db, `bulk-plain-${engine}`, []);
    helperUser = await createTestUser(t.db, {
      email: `bulk-helper-${engine}@demo.local`,
      tenant: 'backoffice',
      role: `bulk-helper-${engine}`,
    });
    helper = await issuedBearer(t, helperUser.id);
    customerUser = await createTestUser(t.db, {
      email: `bulk-customer-${engine}@demo.local`,
      tenant: 'farmacia-central',
      role: ADMIN_ROLE,
      originBackoffice: false,
    });
    customer = await issuedBearer(t, customerUser.id);
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  const fresh = async (options: { tenant?: string; role?: string } = {}): Promise<TestUser> => {
    n += 1;
    return createTestUser(t.db, {
      email: `bulk-${engine}-${n}@demo.local`,
      tenant: options.tenant ?? 'farmacia-central',
      role: options.role ?? `bulk-plain-${engine}`,
    });
  };

  async function call(operationId: 'userBulk' | 'tenantFeatureBulk', body: unknown, headers = staff) {
    const url = operationId === 'userBulk' ? '/api/users/bulk' : '/api/tenant/features/bulk';
    const response = await t.app.fastify.inject({ method: 'POST', url, headers, payload: body as Json });
    const json = response.json<Json>();
    const check = validateResponse(operationId, response.statusCode, json);
    expect(check.errors, `${operationId} ${response.statusCode} ${response.body}`).toEqual([]);
    return { status: response.statusCode, body: json as unknown as Answer & Json, headers: response.headers };
  }
  const users = (body: Json, headers = staff) => call('userBulk', body, headers);
  const features = (body: Json, headers = staff) => call('tenantFeatureBulk', body, headers);
  const byId = (answer: Answer) => new Map(answer.results.map((r) => [r.id, r]));

  const auditCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('audit_log')
          .select(sql<string>`count(*)`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const recordsOfBatch = (batchId: number) =>
    t.db.selectFrom('audit_log').selectAll().where('batch_id', '=', batchId).orderBy('id').execute();
  const userRow = (id: number) =>
    t.db
      .selectFrom('users')
      .select(['blocked', 'deleted_at', 'two_factor_enrolment_required', 'is_connected'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  async function newTenant(prefix: string, features: string[] = []): Promise<number> {
    n += 1;
    const base = `${(Date.now() + n) % 1e8}`.padStart(8, '0') + `${n % 1e4}`.padStart(4, '0');
    const name = `${prefix}-${engine}-${n}`;
    const response = await t.app.fastify.inject({
      method: 'POST',
      url: '/api/tenant',
      headers: staff,
      payload: {
        name,
        cnpj: `${base}${cnpjCheckDigits(base)}`,
        features,
        template: 'farmacia',
        pool: 'pool-a',
        userLimit: 5,
        plan: 'starter',
        ticketLimit: 1000,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: number }>().id;
  }
  const featureOn = async (tenantId: number, option: string) =>
    (
      await t.db
        .selectFrom('tenant_features')
        .select('enabled')
        .where('tenant_id', '=', tenantId)
        .where('option', '=', option)
        .executeTakeFirst()
    )?.enabled ?? false;

  describe('users', () => {
    it('a dry run decides every row with the single action’s reason and writes nothing', async () => {
      const plain = await fresh();
      const blocked = await fresh();
      await t.db.updateTable('users').set({ blocked: true }).where('id', '=', blocked.id).execute();
      const administrator = await fresh({ role: ADMIN_ROLE });
      const deleted = await fresh();
      await t.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', deleted.id).execute();
      const before = await auditCount();

      const answer = await users(
        {
          action: 'block',
          ids: [plain.id, blocked.id, administrator.id, helperUser.id, deleted.id, 2_000_000_000],
          dry_run: true,
        },
        helper,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.batch_id).toBeNull();
      const rows = byId(answer.body);
      expect(rows.get(plain.id)).toMatchObject({ outcome: 'change', name: expect.any(String) });
      expect(rows.get(blocked.id)).toMatchObject({ outcome: 'unchanged' });
      expect(rows.get(administrator.id)).toMatchObject({ outcome: 'refused', reason: 'forbidden' });
      expect(rows.get(administrator.id)?.message).toMatch(/administrador/);
      expect(rows.get(helperUser.id)).toMatchObject({ outcome: 'refused', reason: 'own_account' });
      expect(rows.get(deleted.id)).toMatchObject({ outcome: 'refused', reason: 'deleted' });
      expect(rows.get(2_000_000_000)).toEqual({
        id: 2_000_000_000,
        name: null,
        outcome: 'refused',
        reason: 'not_found',
        message: 'Not found',
      });
      expect(await auditCount()).toBe(before);
      expect((await userRow(plain.id)).blocked).toBe(false);
    });

    it('another tenant’s user is refused exactly as an id that does not exist, for a dry run and a real one', async () => {
      const elsewhere = await fresh({ tenant: 'backoffice' });
      const mine = await fresh();
      for (const dry_run of [true, false]) {
        const answer = await users({ action: 'block', ids: [elsewhere.id, 2_000_000_001, mine.id], dry_run }, customer);
        expect(answer.status).toBe(200);
        const [other, none, own] = answer.body.results;
        expect({ ...other, id: 0 }).toEqual({ ...none, id: 0 });
        expect(other).toMatchObject({ name: null, outcome: 'refused', reason: 'not_found' });
        expect(own).toMatchObject({ outcome: dry_run ? 'change' : 'changed' });
      }
      expect((await userRow(elsewhere.id)).blocked).toBe(false);
      expect((await userRow(mine.id)).blocked).toBe(true);
    });

    it('a real run writes the batch’s record and one per changed row naming it; none for the rows left', async () => {
      const a = await fresh();
      const b = await fresh();
      const already = await fresh();
      await t.db.updateTable('users').set({ blocked: true }).where('id', '=', already.id).execute();
      const administrator = await fresh({ role: ADMIN_ROLE });

      const answer = await users(
        { action: 'block', ids: [a.id, b.id, already.id, administrator.id, a.id], dry_run: false, total: 40 },
        helper,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.results.map((r) => [r.id, r.outcome])).toEqual([
        [a.id, 'changed'],
        [b.id, 'changed'],
        [already.id, 'unchanged'],
        [administrator.id, 'refused'],
      ]);
      const batchId = answer.body.batch_id;
      expect(batchId).toEqual(expect.any(Number));
      const batch = await t.db
        .selectFrom('audit_log')
        .selectAll()
        .where('id', '=', batchId as number)
        .executeTakeFirstOrThrow();
      expect(batch).toMatchObject({ operation: 'user.bulk', actor_user_id: helperUser.id, batch_id: null });
      expect(batch.changes).toEqual(
        expect.arrayContaining([
          { field: 'action', before: null, after: '"block"' },
          { field: 'selected', before: null, after: '40' },
        ]),
      );
      const rows = await recordsOfBatch(batchId as number);
      expect(rows.map((r) => [r.operation, r.target_id])).toEqual([
        ['user.block', a.id],
        ['user.block', b.id],
      ]);
      expect((await userRow(a.id)).blocked).toBe(true);
      // The refused administrador is recorded as a denial, as the single action's 403 would be.
      const denial = await t.db
        .selectFrom('audit_log')
        .select('changes')
        .where('operation', '=', 'access.denied')
        .where('actor_user_id', '=', helperUser.id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(denial.changes)).toContain(`row ${administrator.id}`);
    });

    it('each action runs through its single action: unblock, require two-factor, end sessions, delete', async () => {
      const target = await fresh();
      await t.db.updateTable('users').set({ blocked: true, is_connected: true }).where('id', '=', target.id).execute();
      const run = async (action: string) => (await users({ action, ids: [target.id], dry_run: false })).body;
      expect((await run('unblock')).results[0]?.outcome).toBe('changed');
      expect((await userRow(target.id)).blocked).toBe(false);
      const session = await issuedBearer(t, target.id);
      const whoAmI = () => t.app.fastify.inject({ method: 'GET', url: '/api/auth/userInfo', headers: session });
      expect((await whoAmI()).statusCode).toBe(200);
      expect((await run('unblock')).results[0]?.outcome).toBe('unchanged');

      expect((await run('require_two_factor')).results[0]?.outcome).toBe('changed');
      expect((await userRow(target.id)).two_factor_enrolment_required).toBe(true);
      expect((await run('require_two_factor')).results[0]?.outcome).toBe('unchanged');

      const ended = await run('end_sessions');
      expect(ended.results[0]?.outcome).toBe('changed');
      expect((await userRow(target.id)).is_connected).toBe(false);
      expect(
        (await t.app.fastify.inject({ method: 'GET', url: '/api/auth/userInfo', headers: session })).statusCode,
      ).toBe(401);
      expect((await run('end_sessions')).results[0]?.outcome).toBe('unchanged');
      expect((await recordsOfBatch(ended.batch_id as number)).map((r) => r.operation)).toEqual(['user.disconnect']);

      const deleted = await run('delete');
      expect(deleted.results[0]?.outcome).toBe('changed');
      expect((await userRow(target.id)).deleted_at).not.toBeNull();
      expect((await recordsOfBatch(deleted.batch_id as number)).map((r) => r.operation)).toEqual(['user.delete']);
      expect((await run('delete')).results[0]?.outcome).toBe('unchanged');
      expect((await run('block')).results[0]).toMatchObject({ outcome: 'refused', reason: 'deleted' });
    });

    it('a later chunk continues the batch; another user’s, another action’s, an old or a non-batch id is refused', async () => {
      const a = await fresh();
      const b = await fresh();
      const first = await users({ action: 'block', ids: [a.id], dry_run: false, total: 2 });
      const batchId = first.body.batch_id as number;
      const second = await users({ action: 'block', ids: [b.id], dry_run: false, batch_id: batchId });
      expect(second.body.batch_id).toBe(batchId);
      expect((await recordsOfBatch(batchId)).map((r) => r.target_id)).toEqual([a.id, b.id]);

      const c = await fresh();
      const refusedAll = async (body: Json, headers = staff) => {
        const before = await auditCount();
        const answer = await users({ ids: [c.id], dry_run: false, ...body }, headers);
        expect(answer.status).toBe(400);
        expect(JSON.stringify(answer.body)).toContain('batch_id');
        expect(await auditCount()).toBe(before);
      };
      await refusedAll({ action: 'block', batch_id: batchId }, helper);
      await refusedAll({ action: 'unblock', batch_id: batchId });
      // An audit record that is no batch (a row's record), and one that does not exist.
      const rowRecord = (await recordsOfBatch(batchId))[0]?.id as number;
      await refusedAll({ action: 'block', batch_id: rowRecord });
      await refusedAll({ action: 'block', batch_id: 2_000_000_000 });
      // A batch older than an hour: written as the server would have written it then.
      const old = await t.db
        .insertInto('audit_log')
        .values({
          actor_user_id: staffUser.id,
          operation: 'user.bulk',
          target_type: 'user',
          at: new Date(Date.now() - 61 * 60 * 1000),
          changes: JSON.stringify([{ field: 'action', before: null, after: '"block"' }]),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await refusedAll({ action: 'block', batch_id: old.id });
      // A dry run checks it too.
      expect((await users({ action: 'unblock', ids: [c.id], dry_run: true, batch_id: batchId })).status).toBe(400);
      expect((await userRow(c.id)).blocked).toBe(false);
    });

    it('refuses hostile input whole: 101 ids, none, ids out of range, an unknown action, extra fields', async () => {
      const ids = Array.from({ length: 101 }, (_, i) => i + 1);
      const before = await auditCount();
      expect((await users({ action: 'block', ids, dry_run: false })).status).toBe(400);
      expect((await users({ action: 'block', ids: [], dry_run: false })).status).toBe(400);
      expect((await users({ action: 'block', ids: [0], dry_run: true })).status).toBe(400);
      expect((await users({ action: 'block', ids: [2_147_483_648], dry_run: true })).status).toBe(400);
      expect((await users({ action: 'purge', ids: [1], dry_run: true })).status).toBe(400);
      expect((await users({ action: 'block', ids: [1], dry_run: true, tenant_id: 1 })).status).toBe(400);
      expect((await users({ action: 'block', ids: [1], dry_run: false, total: 100_001 })).status).toBe(400);
      expect(await auditCount()).toBe(before);
      // A tenant's role without `users`: 403 before the body is read.
      const plain = await fresh({ tenant: 'farmacia-central', role: OPERATOR_ROLE });
      expect((await users({ action: 'block', ids: [1], dry_run: true }, await issuedBearer(t, plain.id))).status).toBe(
        403,
      );
    });

    it('a fault injected for one row fails that row only; its retry in the same batch changes it', async () => {
      const a = await fresh();
      const b = await fresh();
      t.app.faults?.add([{ operationId: 'userBulk', match: { id: b.id }, status: 500, times: 1 }]);
      const first = await users({ action: 'block', ids: [a.id, b.id], dry_run: false });
      expect(first.status).toBe(200);
      expect(first.body.results.map((r) => [r.id, r.outcome, r.reason])).toEqual([
        [a.id, 'changed', undefined],
        [b.id, 'failed', 'failed'],
      ]);
      const retry = await users({ action: 'block', ids: [b.id], dry_run: false, batch_id: first.body.batch_id });
      expect(retry.body.results[0]?.outcome).toBe('changed');
      expect((await recordsOfBatch(first.body.batch_id as number)).map((r) => r.target_id)).toEqual([a.id, b.id]);
    });
  });

  describe('tenant features', () => {
    it('turns a feature on across tenants: dry run, run, deleted and unknown tenants refused, one record per change', async () => {
      const off = await newTenant('bulk-off');
      const on = await newTenant('bulk-on', ['chatbot']);
      const gone = await newTenant('bulk-gone');
      expect(
        (
          await t.app.fastify.inject({
            method: 'POST',
            url: '/api/tenant/delete',
            headers: staff,
            payload: { id: gone },
          })
        ).statusCode,
      ).toBe(200);
      const ids = [off, on, gone, 2_000_000_000];
      const before = await auditCount();
      const dry = await features({ option: 'chatbot', enabled: true, ids, dry_run: true });
      expect(dry.body.results.map((r) => [r.outcome, r.reason])).toEqual([
        ['change', undefined],
        ['unchanged', undefined],
        ['refused', 'deleted'],
        ['refused', 'not_found'],
      ]);
      expect(await auditCount()).toBe(before);
      expect(await featureOn(off, 'chatbot')).toBe(false);

      const run = await features({ option: 'chatbot', enabled: true, ids, dry_run: false });
      expect(run.body.results.map((r) => r.outcome)).toEqual(['changed', 'unchanged', 'refused', 'refused']);
      expect(await featureOn(off, 'chatbot')).toBe(true);
      expect(await featureOn(gone, 'chatbot')).toBe(false);
      const batch = await t.db
        .selectFrom('audit_log')
        .selectAll()
        .where('id', '=', run.body.batch_id as number)
        .executeTakeFirstOrThrow();
      expect(batch.operation).toBe('tenant.feature-bulk');
      expect((await recordsOfBatch(batch.id)).map((r) => [r.operation, r.target_id])).toEqual([
        ['tenant.feature', off],
      ]);
      // The answer names the batch (x-audit-record): what the SPA offers to undo (docs/lists.md, Undo).
      expect(run.headers['x-audit-record']).toBe(String(batch.id));
      expect(await auditCount()).toBe(before + 2);
    });

    it('is for staff with `tenants`; an unknown feature refuses the whole request; a row fault fails one row', async () => {
      const tenant = await newTenant('bulk-auth');
      expect(
        (await features({ option: 'chatbot', enabled: true, ids: [tenant], dry_run: true }, customer)).status,
      ).toBe(403);
      expect((await features({ option: 'chatbot', enabled: true, ids: [tenant], dry_run: true }, helper)).status).toBe(
        403,
      );
      expect((await features({ option: 'no-such-feature', enabled: true, ids: [tenant], dry_run: true })).status).toBe(
        404,
      );
      const other = await newTenant('bulk-fault');
      t.app.faults?.add([{ operationId: 'tenantFeatureBulk', match: { id: other }, status: 500, times: 1 }]);
      const first = await features({ option: 'webhooks', enabled: true, ids: [tenant, other], dry_run: false });
      expect(first.body.results.map((r) => r.outcome)).toEqual(['changed', 'failed']);
      expect(await featureOn(other, 'webhooks')).toBe(false);
      const retry = await features({
        option: 'webhooks',
        enabled: true,
        ids: [other],
        dry_run: false,
        batch_id: first.body.batch_id,
      });
      expect(retry.body.results[0]?.outcome).toBe('changed');
      expect(await featureOn(other, 'webhooks')).toBe(true);
      // A batch of one feature is not continued by another.
      expect(
        (
          await features({
            option: 'webhooks',
            enabled: false,
            ids: [other],
            dry_run: false,
            batch_id: first.body.batch_id,
          })
        ).status,
      ).toBe(400);
    });
  });

  // Concurrency is PostgreSQL's: PGlite has one connection, so requests there never overlap.
  if (postgres)
    describe('concurrency (PostgreSQL)', () => {
      it('two identical runs at once change each row once, with no 5xx', async () => {
        const targets = await Promise.all(Array.from({ length: 12 }, () => fresh()));
        const ids = targets.map((u) => u.id);
        for (const action of ['block', 'end_sessions', 'delete'] as const) {
          if (action === 'end_sessions')
            await t.db.updateTable('users').set({ is_connected: true }).where('id', 'in', ids).execute();
          const answers = await Promise.all([0, 1].map(() => users({ action, ids, dry_run: false })));
          for (const answer of answers) expect(answer.status).toBe(200);
          for (const id of ids) {
            const outcomes = answers.map((a) => byId(a.body).get(id)?.outcome).sort();
            expect(outcomes, `${action} ${id}`).toEqual(['changed', 'unchanged']);
          }
          const records = await t.db
            .selectFrom('audit_log')
            .select('target_id')
            .where(
              'batch_id',
              'in',
              answers.map((a) => a.body.batch_id as number),
            )
            .execute();
          expect(records.map((r) => r.target_id).sort((x, y) => (x ?? 0) - (y ?? 0))).toEqual(
            [...ids].sort((x, y) => x - y),
          );
        }
        const tenants = await Promise.all(Array.from({ length: 6 }, () => newTenant('bulk-race')));
        const answers = await Promise.all(
          [0, 1].map(() => features({ option: 'campaigns', enabled: true, ids: tenants, dry_run: false })),
        );
        for (const id of tenants)
          expect(answers.map((a) => byId(a.body).get(id)?.outcome).sort()).toEqual(['changed', 'unchanged']);
        // About 80 requests' worth of rows on a 2-core box shared with other suites: more than the default 30 s.
      }, 120_000);
    });
});
