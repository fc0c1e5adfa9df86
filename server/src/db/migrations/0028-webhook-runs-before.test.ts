import { Migrator, sql } from 'kysely';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../test-support/postgres';
import type { OpenDatabase } from '../connect';
import { MIGRATIONS } from '../migrate';
import { openEmptyTestDatabase } from '../../test-support/database';

/**
 * Migrations 0027 and 0028 on a database with a run generated the old way (migrated up to 0026, a
 * `webhook_deliveries` row of the base server: a count, no delivery), on PGlite and on PostgreSQL: the
 * run keeps its count and is finished when it was made, not left looking under way.
 */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('migrations 0027-0028 over an old run on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let database: OpenDatabase;

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    database = await openEmptyTestDatabase(cluster ? cluster.url : 'pglite://memory');
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await cluster?.stop();
  });

  it('finishes the old run at its creation and keeps its count', async () => {
    const migrator = new Migrator({
      db: database.db,
      provider: { getMigrations: () => Promise.resolve({ ...MIGRATIONS }) },
    });
    expect((await migrator.migrateTo('0026-permission-names')).error).toBeUndefined();
    const db = database.db;
    const tenant = await db
      .insertInto('tenants')
      .values({
        name: 'antes',
        cnpj: '11.222.333/0001-81',
        template: 't',
        pool: 'p',
        plan: 'starter',
        user_limit: 50,
        ticket_limit: 10,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const made = new Date('2026-11-02T13:00:00.000Z');
    await sql`insert into webhook_deliveries (tenant_id, type, start_at, finish_at, deliveries, created_at)
      values (${tenant.id}, 'delivered', '2026-11-01', '2026-11-01', 12, ${made})`.execute(db);
    expect((await migrator.migrateTo('0027-webhooks')).error).toBeUndefined();
    const before = await db.selectFrom('webhook_runs').select(['total', 'finished_at']).executeTakeFirstOrThrow();
    expect(before).toEqual({ total: 12, finished_at: null });
    expect((await migrator.migrateTo('0028-webhook-runs-before')).error).toBeUndefined();
    const after = await db.selectFrom('webhook_runs').select(['total', 'finished_at']).executeTakeFirstOrThrow();
    expect(after).toEqual({ total: 12, finished_at: made });
  });
});
