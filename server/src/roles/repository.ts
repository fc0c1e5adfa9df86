import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { nextVersion } from '../audit/versions';
export { grantedRoutes } from '../db/user-dto';

/** The roles service's SQL (server/src/roles/service.ts): roles, the permission catalogue, role permissions. */

type Db = Kysely<Database> | Transaction<Database>;

export function allRoles(db: Db) {
  return db.selectFrom('roles').select(['id', 'name', 'display_name', 'version']).orderBy('id').execute();
}

export function findRole(db: Db, id: number) {
  return db
    .selectFrom('roles')
    .select(['id', 'name', 'display_name', 'version'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function roleNameTaken(db: Db, name: string): Promise<boolean> {
  return Boolean(await db.selectFrom('roles').select('id').where('name', '=', name).executeTakeFirst());
}

export async function insertRole(db: Db, values: { name: string; display_name: string }): Promise<number> {
  return (await db.insertInto('roles').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

/**
 * Renames the role and raises its version in one statement; with `expected`, only while the role is at that
 * version (docs/lists.md, Versions). Answers the new version, or undefined when the version was not `expected`.
 */
export async function renameRole(
  db: Db,
  id: number,
  displayName: string,
  expected?: number,
): Promise<number | undefined> {
  let query = db.updateTable('roles').set({ display_name: displayName, version: nextVersion }).where('id', '=', id);
  if (expected !== undefined) query = query.where('version', '=', expected);
  return (await query.returning('version').executeTakeFirst())?.version;
}

/**
 * Raises the role's version, only while it is at `expected` when given: the check and the write of a
 * permission change in one statement, its rows written after it (./service.ts `setPermissions`).
 */
export async function raiseRoleVersion(db: Db, id: number, expected?: number): Promise<number | undefined> {
  let query = db.updateTable('roles').set({ version: nextVersion }).where('id', '=', id);
  if (expected !== undefined) query = query.where('version', '=', expected);
  return (await query.returning('version').executeTakeFirst())?.version;
}

/**
 * The role, its row locked until the transaction ends (a delete's check against new holders; the
 * before of a change that two requests could make at once).
 */
export function lockRole(trx: Transaction<Database>, id: number) {
  return trx
    .selectFrom('roles')
    .select(['id', 'name', 'display_name', 'version'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** How many users point at the role: live, and soft-deleted (whose rows keep the reference). */
export async function roleHolders(
  trx: Transaction<Database>,
  roleId: number,
): Promise<{ live: number; deleted: number }> {
  const row = await trx
    .selectFrom('users')
    .select((eb) => [
      eb.fn.countAll<string>().filterWhere('deleted_at', 'is', null).as('live'),
      eb.fn.countAll<string>().filterWhere('deleted_at', 'is not', null).as('deleted'),
    ])
    .where('role_id', '=', roleId)
    .executeTakeFirstOrThrow();
  return { live: Number(row.live), deleted: Number(row.deleted) };
}

export async function deleteRole(trx: Transaction<Database>, id: number): Promise<void> {
  await trx.deleteFrom('roles').where('id', '=', id).execute();
}

/** The permission catalogue, by category then route name. */
export function allPermissions(db: Db) {
  return db
    .selectFrom('permissions')
    .select(['id', 'route_name', 'display_name', 'category'])
    .orderBy('category')
    .orderBy('route_name')
    .execute();
}

export function permissionsNamed(db: Db, routeNames: readonly string[]) {
  if (routeNames.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('permissions')
    .select(['id', 'route_name'])
    .where('route_name', 'in', [...routeNames])
    .execute();
}

/** Makes the role's permissions exactly these. */
export async function replaceRolePermissions(
  trx: Transaction<Database>,
  roleId: number,
  permissionIds: readonly number[],
): Promise<void> {
  await trx.deleteFrom('role_permissions').where('role_id', '=', roleId).execute();
  if (permissionIds.length)
    await trx
      .insertInto('role_permissions')
      .values(permissionIds.map((permission_id) => ({ role_id: roleId, permission_id })))
      .execute();
}

/** The live user with this (lower-cased) e-mail and its role, or undefined. */
export function userRoleByEmail(db: Db, email: string) {
  return db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select(['u.id', 'u.tenant_id', 'r.id as role_id', 'r.name as role_name'])
    .where((eb) => eb(eb.fn('lower', ['u.email']), '=', email))
    .where('u.deleted_at', 'is', null)
    .executeTakeFirst();
}
