import { sql, type Insertable, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { RoleGrant } from '../access/escalation';
import type { Database, UsersTable } from '../db/schema';
import { permittedRoutesOf } from '../db/user-dto';
import { nextVersion } from '../audit/versions';

/** The users service's SQL (server/src/users/service.ts): reads and writes of users and their links. */

type Db = Kysely<Database> | Transaction<Database>;

/** A live (not deleted) user's id and tenant, or undefined. */
/**
 * A live user of a live tenant: a deleted tenant's users take no change (as its departments and
 * instances take none), whichever protocol asks (GraphQL finds no deleted tenant on its path; REST's
 * `PUT /api/users/{id}` and bulk runs name no tenant).
 */
export function findLiveUser(db: Db, id: number) {
  return db
    .selectFrom('users')
    .innerJoin('tenants', 'tenants.id', 'users.tenant_id')
    .select(['users.id', 'users.tenant_id'])
    .where('users.id', '=', id)
    .where('users.deleted_at', 'is', null)
    .where('tenants.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A user, live or deleted: id, tenant and when deleted (a bulk run tells a deleted user from an unknown one). */
export function findUserAnyState(db: Db, id: number) {
  return db.selectFrom('users').select(['id', 'tenant_id', 'deleted_at']).where('id', '=', id).executeTakeFirst();
}

/** When the user was deleted (null: live; undefined: no such user). */
export async function deletedAtOf(db: Db, id: number): Promise<Date | null | undefined> {
  const row = await db.selectFrom('users').select('deleted_at').where('id', '=', id).executeTakeFirst();
  return row?.deleted_at;
}

/** Whether the user is marked online (undefined: no such user). */
export async function isConnectedOf(db: Db, id: number): Promise<boolean | undefined> {
  const row = await db.selectFrom('users').select('is_connected').where('id', '=', id).executeTakeFirst();
  return row?.is_connected;
}

/** The names of these users, by id. */
export async function userNames(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * A session is live while it is not revoked and its refresh window is not over; a session from before
 * migration 0019 has no stored window and is taken at the longest one (`longestWindowSeconds`). The
 * support desk (server/src/support/repository.ts) and the users list's bulk "end sessions" read the same.
 */
export const liveSession = (longestWindowSeconds: number) =>
  sql<boolean>`revoked_at is null and coalesce(refresh_until, created_at + ${longestWindowSeconds} * interval '1 second') > now()`;

/** Ends the user's live sessions in `trx` (as TokenService does: `revoked_at`); answers how many. */
export async function endLiveSessions(trx: Transaction<Database>, userId: number, longestWindowSeconds: number) {
  const ended = await trx
    .updateTable('token_families')
    .set({ revoked_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where(liveSession(longestWindowSeconds))
    .returning('id')
    .execute();
  return ended.length;
}

/** The live user with this (lower-cased) e-mail, or undefined. */
export function findLiveUserByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'tenant_id'])
    .where(sql<string>`lower(email)`, '=', email)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Whether a user other than `exceptId` holds the (lower-cased) e-mail: a live one, or a deleted one that
 * keeps it until restored or purged (`email_reserved`, migration 0019), as `users_email_lower_key` says.
 */
export async function emailTaken(db: Db, email: string, exceptId?: number): Promise<boolean> {
  let query = db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(email)`, '=', email)
    .where((eb) => eb.or([eb('deleted_at', 'is', null), eb('email_reserved', '=', true)]));
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return Boolean(await query.executeTakeFirst());
}

/** Whether a live user of the tenant other than `exceptId` holds the username (ignoring case). */
export async function usernameTaken(db: Db, tenantId: number, username: string, exceptId?: number): Promise<boolean> {
  let query = db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .where('deleted_at', 'is', null);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return Boolean(await query.executeTakeFirst());
}

export async function roleExists(db: Db, roleId: number): Promise<boolean> {
  return Boolean(await db.selectFrom('roles').select('id').where('id', '=', roleId).executeTakeFirst());
}

export async function departmentInTenant(db: Db, tenantId: number, departmentId: number): Promise<boolean> {
  return Boolean(
    await db
      .selectFrom('departments')
      .select('id')
      .where('id', '=', departmentId)
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst(),
  );
}

/** How many of the (distinct) instance ids belong to the tenant. */
export async function instancesInTenant(db: Db, tenantId: number, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const found = await db
    .selectFrom('instances')
    .select('id')
    .where('id', 'in', [...ids])
    .where('tenant_id', '=', tenantId)
    .execute();
  return found.length;
}

/**
 * Locks the tenant's row for the rest of the transaction and answers its user limit: creations in
 * one tenant then run one after the other, so counting live users and inserting one cannot
 * interleave with another creation (the limit holds under concurrent requests).
 *
 * `FOR NO KEY UPDATE`, never `FOR UPDATE`, as every lock a user's creation or restore takes on its tenant
 * (server/src/support/repository.ts `lockTenant` too): it excludes another creation or restore, the
 * tenant's deletion and its feature changes, but not the `FOR KEY SHARE` lock of a foreign key's check.
 * PostgreSQL checks `users.tenant_id` again when a transaction updates a user's row it has already
 * written (a delete, a block or a two-factor change, whose record then raises the version): under `FOR
 * UPDATE` that change, holding its user, waited for the tenant while a restore holding the tenant waited
 * for the user, a deadlock (docs/lists.md, Undo on the server; server/src/security/restore-locks.test.ts).
 */
export async function lockTenantUserLimit(trx: Transaction<Database>, tenantId: number): Promise<number> {
  const row = await trx
    .selectFrom('tenants')
    .select('user_limit')
    .where('id', '=', tenantId)
    .forNoKeyUpdate()
    .executeTakeFirstOrThrow();
  return row.user_limit;
}

/**
 * {@link lockTenantUserLimit} for bringing a deleted user back, in the same mode: also answers whether the
 * tenant is deleted, since a restore into a deleted tenant is refused (as the support desk's restore
 * refuses it).
 */
export async function lockTenantForRestore(
  trx: Transaction<Database>,
  tenantId: number,
): Promise<{ user_limit: number; deleted: boolean }> {
  const row = await trx
    .selectFrom('tenants')
    .select(['user_limit', 'deleted_at'])
    .where('id', '=', tenantId)
    .forNoKeyUpdate()
    .executeTakeFirstOrThrow();
  return { user_limit: row.user_limit, deleted: row.deleted_at !== null };
}

export async function countLiveUsers(db: Db, tenantId: number): Promise<number> {
  const { n } = await db
    .selectFrom('users')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return n;
}

export type NewUserRow = Pick<
  Insertable<UsersTable>,
  'tenant_id' | 'role_id' | 'department_id' | 'name' | 'username' | 'email' | 'password_hash' | 'origin_backoffice'
>;

export async function insertUser(db: Db, values: NewUserRow): Promise<number> {
  const created = await db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
  return created.id;
}

export async function updateUserRow(db: Db, id: number, set: Updateable<UsersTable>): Promise<void> {
  if (Object.keys(set).length === 0) return;
  await db.updateTable('users').set(set).where('id', '=', id).execute();
}

/**
 * Writes a change of the user and raises its version in one statement; with `expected`, only while the
 * user is at that version (docs/lists.md, Versions). Answers the new version, or undefined when it was not.
 */
export async function updateUserVersioned(
  db: Db,
  id: number,
  set: Updateable<UsersTable>,
  expected?: number,
): Promise<number | undefined> {
  let query = db
    .updateTable('users')
    .set({ ...set, version: nextVersion })
    .where('id', '=', id);
  if (expected !== undefined) query = query.where('version', '=', expected);
  return (await query.returning('version').executeTakeFirst())?.version;
}

/** Makes the user's instance links exactly `instanceIds`, keeping the links (and their ids) that stay. */
export async function setInstanceLinks(db: Db, userId: number, instanceIds: readonly number[]): Promise<void> {
  let removal = db.deleteFrom('user_instances').where('user_id', '=', userId);
  if (instanceIds.length > 0) removal = removal.where('instance_id', 'not in', [...instanceIds]);
  await removal.execute();
  if (instanceIds.length > 0) {
    await db
      .insertInto('user_instances')
      .values(instanceIds.map((instance_id) => ({ user_id: userId, instance_id })))
      .onConflict((oc) => oc.columns(['user_id', 'instance_id']).doNothing())
      .execute();
  }
}

/** Soft-deletes the user: its links go, it is no longer connected. */
export async function markUserDeleted(db: Db, id: number): Promise<void> {
  await db.deleteFrom('user_instances').where('user_id', '=', id).execute();
  // The e-mail stays the deleted user's until it is restored or purged (migration 0019, docs/support-desk.md).
  await db
    .updateTable('users')
    .set({ deleted_at: new Date(), is_connected: false, email_reserved: true })
    .where('id', '=', id)
    .execute();
}

/** Brings a soft-deleted user back (offline, no links: deleting removed them), as the support desk's restore does. */
export async function markUserRestored(db: Db, id: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ deleted_at: null, email_reserved: false, is_connected: false })
    .where('id', '=', id)
    .execute();
}

/**
 * Locks the user's row for the rest of the transaction, live or soft-deleted; undefined when there is
 * no such row (never was, or purged). Of two racing purges the second waits here, then finds none.
 */
export function lockUserForPurge(trx: Transaction<Database>, id: number) {
  return trx
    .selectFrom('users')
    .select(['id', 'tenant_id', 'name', 'deleted_at'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Deletes the user row; its rows in other tables go by the foreign keys (server/src/db/migrations):
 * token families, socket tickets, two-factor recovery codes and instance links `on delete cascade`;
 * sign-in attempts, attendances and webhook deliveries keep their history (`on delete set null`).
 */
export async function purgeUser(db: Db, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).executeTakeFirstOrThrow();
}

export function userTokenVersion(db: Db, id: number) {
  return db.selectFrom('users').select('token_version').where('id', '=', id).executeTakeFirstOrThrow();
}

// A user's e-mail is part of the user read model auth shares, a floor down (server/src/db/user-dto.ts).
export { userEmail } from '../db/user-dto';

export function twoFactorEnabledOf(db: Db, id: number) {
  return db
    .selectFrom('users')
    .select(['two_factor_enabled', 'two_factor_enrolment_required'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/**
 * Requires (or stops requiring) enrolment at the user's next sign-in; requiring it only while two-factor
 * is off (checked in the same statement). Answers whether a row changed.
 */
export async function setEnrolmentRequired(db: Db, id: number, required: boolean): Promise<boolean> {
  let query = db.updateTable('users').set({ two_factor_enrolment_required: required }).where('id', '=', id);
  if (required) query = query.where('two_factor_enabled', '=', false);
  return (await query.returning('id').executeTakeFirst()) !== undefined;
}

/** The user's instance links, by link id. */
export async function instanceLinksOf(db: Db, userId: number) {
  return db
    .selectFrom('user_instances as ui')
    .innerJoin('instances as i', 'i.id', 'ui.instance_id')
    .select(['ui.id', 'i.id as instance_id', 'i.name', 'i.activated', 'i.version'])
    .where('ui.user_id', '=', userId)
    .orderBy('ui.id')
    .execute();
}

/** A link of a live user of the tenant, or undefined. */
export function findTenantLink(db: Db, tenantId: number, linkId: number) {
  return db
    .selectFrom('user_instances as ui')
    .innerJoin('users as u', 'u.id', 'ui.user_id')
    .select(['ui.id', 'ui.user_id'])
    .where('ui.id', '=', linkId)
    .where('u.tenant_id', '=', tenantId)
    .where('u.deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function deleteLink(db: Db, linkId: number): Promise<void> {
  await db.deleteFrom('user_instances').where('id', '=', linkId).execute();
}

/** Ids of the tenant's connected live users, optionally without one user and only those linked to an instance. */
export async function onlineUserIds(
  db: Db,
  tenantId: number,
  filter: { exceptUserId?: number | null; instanceId?: number | null },
): Promise<number[]> {
  let query = db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .where('is_connected', '=', true);
  if (filter.exceptUserId != null) query = query.where('id', '!=', filter.exceptUserId);
  const instanceId = filter.instanceId;
  if (instanceId != null) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_instances as ui')
          .select('ui.id')
          .whereRef('ui.user_id', '=', 'users.id')
          .where('ui.instance_id', '=', instanceId),
      ),
    );
  }
  return (await query.execute()).map((r) => r.id);
}

/** The tenant's live users as id, name and e-mail, by name. */
export function userSummaries(db: Db, tenantId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email'])
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/**
 * What the audit log records of a user (server/src/users/service.ts): the fields a change may touch,
 * instances as sorted ids; never the password hash or two-factor secrets. Undefined when it does not exist.
 */
export async function auditStateOf(db: Db, id: number) {
  const row = await db
    .selectFrom('users')
    .select([
      'id',
      'tenant_id',
      'name',
      'username',
      'email',
      'image',
      'role_id',
      'department_id',
      'blocked',
      'two_factor_enabled',
      'two_factor_enrolment_required',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const links = await db
    .selectFrom('user_instances')
    .select('instance_id')
    .where('user_id', '=', id)
    .orderBy('instance_id')
    .execute();
  return { ...row, instances: links.map((l) => l.instance_id) };
}

export type UserAuditState = NonNullable<Awaited<ReturnType<typeof auditStateOf>>>;

/**
 * Locks the user's row for the rest of the transaction and answers its role: a check of who may act on
 * the user (server/src/access/escalation.ts) then holds until the change commits, whatever changes the
 * role meanwhile. Undefined when the user does not exist.
 */
export function lockUserRole(trx: Transaction<Database>, id: number) {
  return trx
    .selectFrom('users')
    .select(['id', 'role_id', 'deleted_at'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** A role as the access rules see it (server/src/access/escalation.ts `RoleGrant`), or undefined. */
export async function roleGrant(db: Db, roleId: number): Promise<RoleGrant | undefined> {
  const role = await db.selectFrom('roles').select(['id', 'name']).where('id', '=', roleId).executeTakeFirst();
  if (!role) return undefined;
  return { id: role.id, name: role.name, routes: await permittedRoutesOf(db, role.id, role.name) };
}
