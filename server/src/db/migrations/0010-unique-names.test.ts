import { Migrator } from 'kysely';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../test-support/postgres';
import type { OpenDatabase } from '../connect';
import { MIGRATIONS, migrate } from '../migrate';
import { openEmptyTestDatabase } from '../../test-support/database';

/**
 * Migration 0010 on a database that already breaks the new rules (migrated up to 0009, then written the
 * way the old check-then-insert paths could: two instances named alike in one tenant, two live users
 * with one username in one tenant), on PGlite and on PostgreSQL: the migration succeeds, keeps every
 * row, renames only the later duplicates, and from then on the database refuses new duplicates.
 */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('migration 0010-unique-names on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let database: OpenDatabase;
  const ids: { tenant: number; other: number; role: number; users: number[]; instances: number[] } = {
    tenant: 0,
    other: 0,
    role: 0,
    users: [],
    instances: [],
  };

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    database = await openEmptyTestDatabase(cluster ? cluster.url : 'pglite://memory');
    const migrator = new Migrator({
      db: database.db,
      provider: { getMigrations: () => Promise.resolve({ ...MIGRATIONS }) },
    });
    expect((await migrator.migrateTo('0009-totp-encryption')).error).toBeUndefined();
    const db = database.db;
    const tenant = { template: 't', pool: 'p', plan: 'starter' as const, user_limit: 50, ticket_limit: 10 };
    ids.tenant = (
      await db
        .insertInto('tenants')
        .values({ ...tenant, name: 'antes', cnpj: '11.222.333/0001-81' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    ids.other = (
      await db
        .insertInto('tenants')
        .values({ ...tenant, name: 'outra', cnpj: '12.ABC.345/01DE-35' })
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
    const user = (tenantId: number, username: string, email: string, deleted = false) => ({
      tenant_id: tenantId,
      role_id: ids.role,
      name: 'X',
      username,
      email,
      password_hash: 'h',
      deleted_at: deleted ? new Date() : null,
    });
    for (const values of [
      user(ids.tenant, 'maria', 'maria1@x.test'),
      user(ids.tenant, 'MARIA', 'maria2@x.test'),
      user(ids.tenant, 'maria', 'maria3@x.test', true),
      user(ids.other, 'maria', 'maria4@x.test'),
    ]) {
      ids.users.push((await db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow()).id);
    }
    for (const values of [
      { tenant_id: ids.tenant, name: 'WhatsApp Loja' },
      { tenant_id: ids.tenant, name: 'whatsapp loja' },
      { tenant_id: ids.other, name: 'WhatsApp Loja' },
    ]) {
      ids.instances.push(
        (await db.insertInto('instances').values(values).returning('id').executeTakeFirstOrThrow()).id,
      );
    }
    await migrate(database.db);
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await cluster?.stop();
  });

  it('keeps the first of each duplicate and renames the later live ones with their id', async () => {
    const users = await database.db.selectFrom('users').select(['id', 'username']).orderBy('id').execute();
    const [first, second, deleted, otherTenant] = ids.users;
    expect(users).toEqual([
      { id: first, username: 'maria' },
      { id: second, username: `MARIA-${second}` },
      // A deleted user does not take part in the rule; another tenant's user neither.
      { id: deleted, username: 'maria' },
      { id: otherTenant, username: 'maria' },
    ]);
    const instances = await database.db.selectFrom('instances').select(['id', 'name']).orderBy('id').execute();
    const [a, b, c] = ids.instances;
    expect(instances).toEqual([
      { id: a, name: 'WhatsApp Loja' },
      { id: b, name: `whatsapp loja (${b})` },
      { id: c, name: 'WhatsApp Loja' },
    ]);
  });

  it('refuses a new duplicate username in a tenant, ignoring case, and allows it elsewhere or once deleted', async () => {
    const db = database.db;
    const values = { tenant_id: ids.tenant, role_id: ids.role, name: 'Y', password_hash: 'h' };
    await expect(
      db
        .insertInto('users')
        .values({ ...values, username: 'Maria', email: 'y1@x.test' })
        .execute(),
    ).rejects.toMatchObject({
      code: '23505',
      constraint: 'users_tenant_username_key',
    });
    await db
      .insertInto('users')
      .values({ ...values, tenant_id: ids.other, username: 'Joana', email: 'y2@x.test' })
      .execute();
    await db
      .insertInto('users')
      .values({ ...values, username: 'joana', email: 'y3@x.test' })
      .execute();
  });

  it('refuses a new instance named like another of its tenant, ignoring case', async () => {
    const db = database.db;
    await expect(
      db.insertInto('instances').values({ tenant_id: ids.tenant, name: 'WHATSAPP LOJA' }).execute(),
    ).rejects.toMatchObject({
      code: '23505',
      constraint: 'instances_tenant_name_key',
    });
    await db.insertInto('instances').values({ tenant_id: ids.other, name: 'whatsapp loja (2)' }).execute();
  });
});
