import { sql } from 'kysely';
import { openTestDatabase } from '../test-support/database';
import { EventBus, type PanelEvent } from '../base/events';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { changesOf, createAuditTrail, SYSTEM } from './trail';

/** The audit trail's writer: records commit with their change or not at all, and can never be changed. */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: the audit trail', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  const events = new EventBus();
  const heard: PanelEvent[] = [];

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    database = await openTestDatabase(cluster?.url);
    events.subscribe((e) => heard.push(e));
    await database.db
      .insertInto('tenants')
      .values({
        name: 'farmacia-trilha',
        cnpj: '11.222.333/0001-81',
        template: 't',
        pool: 'p',
        plan: 'starter',
        user_limit: 5,
        ticket_limit: 10,
      })
      .execute();
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await cluster?.stop();
  });

  const who = { actor: null, origin: { requestId: 'req-1', address: '203.0.113.9' } };

  async function tenantId() {
    const row = await database.db
      .selectFrom('tenants')
      .select('id')
      .where('name', '=', 'farmacia-trilha')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('writes the record with the change, and announces it after the commit to the target tenant', async () => {
    const trail = createAuditTrail({ db: database.db, events });
    const id = await tenantId();
    heard.length = 0;
    await trail.transaction(who, async (trx, record) => {
      await trx.updateTable('tenants').set({ plan: 'enterprise' }).where('id', '=', id).execute();
      await record({
        operation: 'tenant.plan',
        target: { id, name: 'farmacia-trilha' },
        tenantId: id,
        changes: changesOf({ plan: 'starter', password: 'x' }, { plan: 'enterprise', password: 'y' }),
      });
      expect(heard).toEqual([]);
    });
    const rows = await database.db.selectFrom('audit_log').selectAll().where('operation', '=', 'tenant.plan').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      target_type: 'tenant',
      target_id: id,
      tenant_id: id,
      tenant_name: 'farmacia-trilha',
      address: '203.0.113.9',
      request_id: 'req-1',
      changes: [{ field: 'plan', before: '"starter"', after: '"enterprise"' }],
    });
    expect(heard.map((e) => [e.tenantName, e.event])).toEqual([['farmacia-trilha', 'AuditRecorded']]);
  });

  it('a change that fails inside the transaction leaves no record and announces nothing', async () => {
    const trail = createAuditTrail({ db: database.db, events });
    const id = await tenantId();
    const before = await database.db
      .selectFrom('audit_log')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    heard.length = 0;
    await expect(
      trail.transaction(who, async (trx, record) => {
        await record({ operation: 'tenant.plan', target: { id, name: 'farmacia-trilha' }, tenantId: id });
        await trx.updateTable('tenants').set({ plan: 'starter' }).where('id', '=', id).execute();
        throw new Error('injected failure after the record');
      }),
    ).rejects.toThrow('injected failure');
    const after = await database.db
      .selectFrom('audit_log')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    const tenant = await database.db
      .selectFrom('tenants')
      .select('plan')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(tenant.plan).toBe('enterprise');
    expect(heard).toEqual([]);
  });

  it('refuses to record a secret field', async () => {
    const trail = createAuditTrail({ db: database.db, events });
    await expect(
      trail.write(SYSTEM, {
        operation: 'user.password',
        target: { id: 1, name: null },
        tenantId: null,
        changes: [{ field: 'password', before: null, after: '"x"' }],
      }),
    ).rejects.toThrow(/password/);
  });

  it('a record cannot be updated, deleted or truncated; only the purge setting lets a delete through', async () => {
    await expect(sql`update audit_log set operation = 'user.create'`.execute(database.db)).rejects.toThrow(
      /cannot be changed/,
    );
    await expect(sql`delete from audit_log`.execute(database.db)).rejects.toThrow(/cannot be changed/);
    await expect(sql`truncate audit_log`.execute(database.db)).rejects.toThrow(/cannot be changed/);
    expect(
      (
        await database.db
          .selectFrom('audit_log')
          .select(sql<number>`count(*)::int`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ).toBeGreaterThan(0);
    const deleted = await database.db.transaction().execute(async (trx) => {
      await sql`select set_config('panel.audit_purge', 'on', true)`.execute(trx);
      return trx.deleteFrom('audit_log').executeTakeFirst();
    });
    expect(Number(deleted.numDeletedRows)).toBeGreaterThan(0);
    // The setting was the transaction's own: refused again after it.
    await sql`insert into audit_log (operation, target_type) values ('audit.purge', 'system')`.execute(database.db);
    await expect(sql`delete from audit_log`.execute(database.db)).rejects.toThrow(/cannot be changed/);
  });
});
