import { Migrator } from 'kysely';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../test-support/postgres';
import type { OpenDatabase } from '../connect';
import { MIGRATIONS } from '../migrate';
import { openEmptyTestDatabase } from '../../test-support/database';

/**
 * Migration 0020 on a database with users from before it, on PGlite and on PostgreSQL: existing users
 * get `must_change_password` false, a token hash is unique, a user's links go with the user, and a
 * request row needs its address.
 */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('migration 0020-password-reset on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let database: OpenDatabase;
  let userId = 0;

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    database = await openEmptyTestDatabase(cluster ? cluster.url : 'pglite://memory');
    const migrator = new Migrator({
      db: database.db,
      provider: { getMigrations: () => Promise.resolve({ ...MIGRATIONS }) },
    });
    expect((await migrator.migrateTo('0018-retention-indexes')).error).toBeUndefined();
    const db = database.db;
    const tenant = await db
      .insertInto('tenants')
      .values({
        template: 't',
        pool: 'p',
        plan: 'starter',
        user_limit: 5,
        ticket_limit: 1,
        name: 'antes',
        cnpj: '11.222.333/0001-81',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const role = await db
      .insertInto('roles')
      .values({ name: 'operador', display_name: 'Operador' })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Written before 0020: no must_change_password column yet.
    userId = (
      await db
        .insertInto('users')
        .values({
          tenant_id: tenant.id,
          role_id: role.id,
          name: 'Antiga',
          username: 'antiga',
          email: 'antiga@example.com',
          password_hash: 'x',
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const { results = [] } = await migrator.migrateToLatest();
    expect(results.map((r) => [r.migrationName, r.status])).toContainEqual(['0020-password-reset', 'Success']);
  }, 120_000);

  afterAll(async () => {
    await database.close();
    await cluster?.stop();
  });

  it('gives users from before it no password change to make', async () => {
    const row = await database.db
      .selectFrom('users')
      .select('must_change_password')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row.must_change_password).toBe(false);
  });

  it('keeps one row per token hash and removes a user’s links with the user', async () => {
    const db = database.db;
    const expires = new Date(Date.now() + 30 * 60_000);
    await db
      .insertInto('password_reset_tokens')
      .values({ user_id: userId, token_hash: 'a'.repeat(64), expires_at: expires, requested_address: '203.0.113.7' })
      .execute();
    await expect(
      db
        .insertInto('password_reset_tokens')
        .values({ user_id: userId, token_hash: 'a'.repeat(64), expires_at: expires, requested_address: null })
        .execute(),
    ).rejects.toThrow(/unique|duplicate/i);
    const stored = await db.selectFrom('password_reset_tokens').selectAll().executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ used_at: null, voided_at: null, requested_address: '203.0.113.7' });
    expect(stored.created_at).toBeInstanceOf(Date);
    await db.deleteFrom('users').where('id', '=', userId).execute();
    expect(await db.selectFrom('password_reset_tokens').selectAll().execute()).toEqual([]);
  });

  it('needs the address of a request', async () => {
    await expect(
      database.db
        .insertInto('password_reset_requests')
        .values({ address_key: null } as never)
        .execute(),
    ).rejects.toThrow(/null/i);
  });
});
