import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminCreateError, createAdmin } from './admin';
import { PERMISSION_ROUTES } from '../db/catalog';
import type { OpenDatabase } from '../db/connect';
import { verifyPassword } from '../db/password';
import { seedDemo } from './seed';
import { openTestDatabase } from '../test-support/database';

const NOW = new Date('2026-03-18T15:30:00Z');

/** createAdmin (server/src/tooling/admin.ts): the first administrator of an empty database. */
describe('createAdmin', () => {
  let database: OpenDatabase;

  beforeAll(async () => {
    database = await openTestDatabase();
  }, 60_000);

  afterAll(async () => {
    await database.close();
  });

  it('creates tenant, roles, permissions and the administrator on an empty database', async () => {
    const created = await createAdmin(database.db, {
      email: ' Root@Example.COM ',
      password: 'S3nh@-Forte!',
      name: 'Rita Root',
    });
    expect(created).toMatchObject({ email: 'root@example.com', tenantName: 'backoffice' });
    const user = await database.db
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .innerJoin('tenants as t', 't.id', 'u.tenant_id')
      .select(['u.password_hash', 'u.origin_backoffice', 'u.username', 'r.name as role', 't.name as tenant'])
      .where('u.id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      origin_backoffice: true,
      username: 'root',
      role: 'administrador',
      tenant: 'backoffice',
    });
    expect(await verifyPassword(user.password_hash, 'S3nh@-Forte!')).toBe(true);
    const permissions = await database.db.selectFrom('permissions').select('route_name').execute();
    expect(permissions.map((p) => p.route_name).sort()).toEqual([...PERMISSION_ROUTES].sort());
  });

  it('refuses an e-mail that exists, whatever its case', async () => {
    await expect(
      createAdmin(database.db, { email: 'ROOT@example.com', password: 'Outra#Senha!1', name: 'Outra' }),
    ).rejects.toMatchObject({
      name: 'AdminCreateError',
      code: 'email_exists',
    });
  });

  it('refuses a short password and a malformed e-mail', async () => {
    await expect(createAdmin(database.db, { email: 'x@y.z', password: 'short', name: 'X' })).rejects.toBeInstanceOf(
      AdminCreateError,
    );
    await expect(
      createAdmin(database.db, { email: 'not-an-email', password: 'long-enough-1!', name: 'X' }),
    ).rejects.toMatchObject({ code: 'invalid_email' });
  });

  it('leaves the database to admin data only: the demo seed then skips', async () => {
    expect(await seedDemo(database.db, { now: NOW })).toBeNull();
  });
});
