import { Migrator, sql } from 'kysely';
import type { OpenDatabase } from '../connect';
import { MIGRATIONS, migrate } from '../migrate';
import { openEmptyTestDatabase } from '../../test-support/database';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../test-support/postgres';

/**
 * Migration 0008 on a database that already holds tenants (migrated up to 0007 first), on PGlite and
 * on PostgreSQL: the numeric CNPJs keep their values, the bare column and the lower-cased search text
 * are filled for them, alphanumeric CNPJs are accepted, and both trigram indexes serve their searches.
 */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('migration 0008-alphanumeric-cnpj on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let database: OpenDatabase;
  const tenant = { template: 't', pool: 'p', plan: 'starter' as const, user_limit: 5, ticket_limit: 10 };

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    database = await openEmptyTestDatabase(cluster ? cluster.url : 'pglite://memory');
    const migrator = new Migrator({
      db: database.db,
      provider: { getMigrations: () => Promise.resolve({ ...MIGRATIONS }) },
    });
    const before = await migrator.migrateTo('0007-tenant-search-text');
    expect(before.error).toBeUndefined();
    await database.db
      .insertInto('tenants')
      .values({ ...tenant, name: 'antes-da-0008', cnpj: '11.222.333/0001-81' })
      .execute();
    await migrate(database.db);
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await cluster?.stop();
  });

  it('keeps the numeric CNPJs and fills the new columns for them', async () => {
    const row = await database.db
      .selectFrom('tenants')
      .select(['cnpj', 'cnpj_bare', 'search_text'])
      .where('name', '=', 'antes-da-0008')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      cnpj: '11.222.333/0001-81',
      cnpj_bare: '11222333000181',
      search_text: 'antes-da-0008 11.222.333/0001-81',
    });
    const columns = await sql<{ column_name: string }>`
      select column_name from information_schema.columns where table_name = 'tenants' and column_name like 'cnpj%' order by 1
    `.execute(database.db);
    expect(columns.rows.map((r) => r.column_name)).toEqual(['cnpj', 'cnpj_bare']);
  });

  it('accepts the alphanumeric mask in upper case only, with numeric check digits', async () => {
    const row = await database.db
      .insertInto('tenants')
      .values({ ...tenant, name: 'alfanumerico', cnpj: '12.ABC.345/01DE-35' })
      .returning(['cnpj_bare', 'search_text'])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ cnpj_bare: '12ABC34501DE35', search_text: 'alfanumerico 12.abc.345/01de-35' });
    for (const cnpj of [
      '12.abc.345/01de-35',
      '12ABC34501DE35',
      '12.ABC.345/01DE-3A',
      '12.ABC.345/01DE35',
      '12.ÀBC.345/01DE-35',
    ]) {
      await expect(
        database.db
          .insertInto('tenants')
          .values({ ...tenant, name: 'recusado', cnpj })
          .execute(),
        cnpj,
      ).rejects.toMatchObject({ code: '23514' });
    }
  });

  it('keeps both searched columns trigram-indexed, and the indexes serve the searches', async () => {
    const indexes = await sql<{ name: string }>`
      select indexname as name from pg_indexes where tablename = 'tenants' and indexname like '%trgm%' order by 1
    `.execute(database.db);
    const ext = await sql<{ n: number }>`select count(*) as n from pg_extension where extname = 'pg_trgm'`.execute(
      database.db,
    );
    // PGlite loads pg_trgm (db/connect.ts); the throwaway cluster ships it in contrib.
    expect(ext.rows[0]?.n).toBe(1);
    expect(indexes.rows.map((r) => r.name)).toEqual(['tenants_cnpj_bare_trgm_idx', 'tenants_search_text_trgm_idx']);
    await database.db.transaction().execute(async (trx) => {
      // Two rows are too few for the planner to prefer an index unless scans are priced out.
      await sql`set local enable_seqscan = off`.execute(trx);
      const plan = async (query: ReturnType<typeof sql>) =>
        (await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(trx)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      expect(await plan(sql`select id from tenants where cnpj_bare like '%ABC345%'`)).toContain(
        'tenants_cnpj_bare_trgm_idx',
      );
      expect(await plan(sql`select id from tenants where search_text like lower('%12.ABC%')`)).toContain(
        'tenants_search_text_trgm_idx',
      );
    });
  });
});
