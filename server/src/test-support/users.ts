import type { Kysely } from 'kysely';
import { OPERATOR_ROLE } from '../db/catalog';
import { hashPassword } from '../db/password';
import type { Database } from '../db/schema';

export const TEST_PASSWORD = 'Test#Pass!word-9';
let hashed: Promise<string> | undefined;

export interface TestUser {
  id: number;
  email: string;
  tenantId: number;
  tenantName: string;
}

/**
 * A user straight in the database (no REST round trip), with {@link TEST_PASSWORD}; the argon2 hash is
 * computed once per test file. `tenant` must exist; `originBackoffice` defaults to the tenant being
 * `backoffice`.
 */
export async function createTestUser(
  db: Kysely<Database>,
  options: { email: string; tenant: string; role?: string; originBackoffice?: boolean; name?: string },
): Promise<TestUser> {
  hashed ??= hashPassword(TEST_PASSWORD);
  const tenant = await db
    .selectFrom('tenants')
    .select(['id', 'name'])
    .where('name', '=', options.tenant)
    .executeTakeFirstOrThrow();
  const role = await db
    .selectFrom('roles')
    .select('id')
    .where('name', '=', options.role ?? OPERATOR_ROLE)
    .executeTakeFirstOrThrow();
  const email = options.email.toLowerCase();
  const row = await db
    .insertInto('users')
    .values({
      tenant_id: tenant.id,
      role_id: role.id,
      department_id: null,
      name: options.name ?? email.split('@')[0] ?? email,
      username:
        email
          .split('@')[0]
          ?.replace(/[^A-Za-z0-9._-]/g, '.')
          .slice(0, 40) ?? 'user',
      email,
      password_hash: await hashed,
      origin_backoffice: options.originBackoffice ?? tenant.name === 'backoffice',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, email, tenantId: tenant.id, tenantName: tenant.name };
}

/** A role straight in the database, granting `routes` (route names of the permissions catalogue); its id. */
export async function createTestRole(db: Kysely<Database>, name: string, routes: readonly string[]): Promise<number> {
  const created = await db
    .insertInto('roles')
    .values({ name, display_name: name })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (routes.length > 0) {
    const permissions = await db
      .selectFrom('permissions')
      .select('id')
      .where('route_name', 'in', [...routes])
      .execute();
    await db
      .insertInto('role_permissions')
      .values(permissions.map((p) => ({ role_id: created.id, permission_id: p.id })))
      .execute();
  }
  return created.id;
}
