import { Migrator, sql } from 'kysely';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../test-support/postgres';
import type { OpenDatabase } from '../connect';
import { MIGRATIONS, migrate } from '../migrate';
import { openEmptyTestDatabase } from '../../test-support/database';

/**
 * Migration 0019 on a database written before it (migrated up to 0018): deleted users whose e-mail a
 * live user now holds, two deleted users with one e-mail and nobody live holding it, a deleted user
 * alone with its e-mail, sign-in attempts and a session. On PGlite and PostgreSQL the migration keeps
 * every row, reserves exactly the e-mails nobody else holds (of several deleted, the last deleted), and
 * from then on the database refuses a reserved e-mail to anyone else; the throttle's definition of a
 * counted attempt and the search column follow their rows.
 */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('migration 0019-support-desk on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let database: OpenDatabase;
  const ids = { tenant: 0, role: 0, live: 0, shadowed: 0, earlier: 0, later: 0, alone: 0, accented: 0 };
  const attempts = { failed: 0, succeeded: 0 };

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    database = await openEmptyTestDatabase(cluster ? cluster.url : 'pglite://memory');
    const migrator = new Migrator({
      db: database.db,
      provider: { getMigrations: () => Promise.resolve({ ...MIGRATIONS }) },
    });
    expect((await migrator.migrateTo('0018-retention-indexes')).error).toBeUndefined();
    const db = database.db;
    ids.tenant = (
      await db
        .insertInto('tenants')
        .values({
          template: 't',
          pool: 'p',
          plan: 'starter',
          user_limit: 50,
          ticket_limit: 10,
          name: 'antes',
          cnpj: '11.222.333/0001-81',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    ids.role = (
      await db
        .insertInto('roles')
        .values({ name: 'tester', display_name: 'Tester' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    // Only the columns that existed before 0019.
    const user = async (username: string, email: string, deletedAt: Date | null, name = 'X') =>
      (
        await sql<{ id: number }>`
          insert into users (tenant_id, role_id, name, username, email, password_hash, deleted_at)
          values (${ids.tenant}, ${ids.role}, ${name}, ${username}, ${email}, 'h', ${deletedAt})
          returning id`.execute(db)
      ).rows[0]!.id;
    ids.shadowed = await user('ana-old', 'ana@x.test', new Date('2026-01-01T00:00:00Z'));
    ids.live = await user('ana', 'ana@x.test', null);
    ids.earlier = await user('carla-1', 'carla@x.test', new Date('2026-02-01T00:00:00Z'));
    ids.later = await user('carla-2', 'carla@x.test', new Date('2026-03-01T00:00:00Z'));
    ids.alone = await user('dora', 'dora@x.test', new Date('2026-04-01T00:00:00Z'));
    ids.accented = await user('Zé.Álvares', 'JOSE@Exemplo.test', null, 'José Ávila Çardoso ÑUÑEZ');
    const attempt = async (success: boolean) =>
      Number(
        (
          await sql<{ id: number }>`
            insert into login_attempts (email, ip, remote_address, address_key, user_id, success)
            values ('ana@x.test', null, '198.51.100.1', '198.51.100.1', ${ids.live}, ${success})
            returning id`.execute(db)
        ).rows[0]!.id,
      );
    attempts.failed = await attempt(false);
    attempts.succeeded = await attempt(true);
    await sql`insert into token_families (id, user_id, current_jti) values ('fam-old', ${ids.live}, 'jti')`.execute(db);
    await migrate(database.db);
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await cluster?.stop();
  });

  it('reserves the e-mail of each deleted user nobody else holds; of several deleted with one, the last deleted', async () => {
    const rows = await database.db
      .selectFrom('users')
      .select(['id', 'email_reserved', 'last_sign_in_at'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: ids.shadowed, email_reserved: false, last_sign_in_at: null },
      { id: ids.live, email_reserved: false, last_sign_in_at: null },
      { id: ids.earlier, email_reserved: false, last_sign_in_at: null },
      { id: ids.later, email_reserved: true, last_sign_in_at: null },
      { id: ids.alone, email_reserved: true, last_sign_in_at: null },
      { id: ids.accented, email_reserved: false, last_sign_in_at: null },
    ]);
  });

  it('refuses a reserved e-mail to a new user, ignoring case, and takes it back when the user is restored', async () => {
    const db = database.db;
    const values = { tenant_id: ids.tenant, role_id: ids.role, name: 'Y', password_hash: 'h' };
    for (const [username, email] of [
      ['dora-2', 'DORA@x.test'],
      ['carla-3', 'carla@x.test'],
      ['ana-2', 'ana@x.test'],
    ] as const) {
      await expect(
        db
          .insertInto('users')
          .values({ ...values, username, email })
          .execute(),
      ).rejects.toMatchObject({
        code: '23505',
        constraint: 'users_email_lower_key',
      });
    }
    // The unreserved legacy user cannot come back while the live one holds its e-mail.
    await expect(
      db.updateTable('users').set({ deleted_at: null, email_reserved: false }).where('id', '=', ids.shadowed).execute(),
    ).rejects.toMatchObject({ code: '23505', constraint: 'users_email_lower_key' });
    // A reserved user's restore keeps the e-mail it held; an unreserved one can be reserved only when free.
    await db
      .updateTable('users')
      .set({ deleted_at: null, email_reserved: false })
      .where('id', '=', ids.alone)
      .execute();
    await expect(
      db.updateTable('users').set({ email_reserved: true }).where('id', '=', ids.earlier).execute(),
    ).rejects.toMatchObject({ code: '23505', constraint: 'users_email_lower_key' });
  });

  it('keeps older attempts and sessions, counting failures as before; reasons and lifting decide from now on', async () => {
    const db = database.db;
    const counted = async (id: number) =>
      await db
        .selectFrom('login_attempts')
        .select(['reason', 'lifted_at', 'throttle_counted'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    expect(await counted(attempts.failed)).toEqual({ reason: null, lifted_at: null, throttle_counted: true });
    expect(await counted(attempts.succeeded)).toEqual({ reason: null, lifted_at: null, throttle_counted: false });
    for (const [reason, expected] of [
      ['wrong_password', true],
      ['unknown_account', true],
      ['blocked', true],
      ['invalid_two_factor_code', true],
      ['throttled', false],
      ['two_factor_required', false],
      ['two_factor_enrolment_required', false],
      ['two_factor_enrolment_expired', false],
      ['tenant_deleted', false],
      ['password_change_required', false],
      ['other_tenant', false],
    ] as const) {
      await db.updateTable('login_attempts').set({ reason }).where('id', '=', attempts.failed).execute();
      expect((await counted(attempts.failed)).throttle_counted, reason).toBe(expected);
    }
    await db
      .updateTable('login_attempts')
      .set({ reason: 'wrong_password', lifted_at: new Date() })
      .where('id', '=', attempts.failed)
      .execute();
    expect((await counted(attempts.failed)).throttle_counted).toBe(false);
    await expect(
      sql`update login_attempts set reason = 'forgot' where id = ${attempts.failed}`.execute(db),
    ).rejects.toMatchObject({ code: '23514' });
    const family = await db
      .selectFrom('token_families')
      .select(['user_agent', 'address', 'remember', 'refresh_until'])
      .where('id', '=', 'fam-old')
      .executeTakeFirstOrThrow();
    expect(family).toEqual({ user_agent: null, address: null, remember: false, refresh_until: null });
  });

  it('folds e-mail, name and username for the search, without case or accents, one per line', async () => {
    const row = await database.db
      .selectFrom('users')
      .select('support_search')
      .where('id', '=', ids.accented)
      .executeTakeFirstOrThrow();
    expect(row.support_search).toBe('jose@exemplo.test\njose avila cardoso nunez\nze.alvares');
    await database.db.updateTable('users').set({ name: 'Maria Antônia' }).where('id', '=', ids.accented).execute();
    const after = await database.db
      .selectFrom('users')
      .select('support_search')
      .where('id', '=', ids.accented)
      .executeTakeFirstOrThrow();
    expect(after.support_search).toBe('jose@exemplo.test\nmaria antonia\nze.alvares');
  });

  it('builds the search indexes (pg_trgm is loaded on PGlite and ships with the throwaway cluster)', async () => {
    const { rows } = await sql<{ indexname: string }>`
      select indexname from pg_indexes where tablename = 'users' and indexname like 'users_support_%' order by 1`.execute(
      database.db,
    );
    expect(rows.map((r) => r.indexname)).toEqual(['users_support_order_idx', 'users_support_search_trgm_idx']);
  });
});
