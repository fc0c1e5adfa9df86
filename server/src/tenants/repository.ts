import { sql, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { Database, Plan, TenantsTable } from '../db/schema';
import { nextVersion } from '../audit/versions';
import { tenantQuery } from './tenant-dto';
import { isBroken } from '../base/broken-promises';

/** The tenants service's SQL (server/src/tenants/service.ts); the paged search is ./search.ts. */

type Db = Kysely<Database> | Transaction<Database>;

/** Live tenants' id and name, by name: one tenant, or every tenant (null); optionally only those with live users. */
export function liveTenantNames(db: Db, filter: { tenantId: number | null; withUsers: boolean }) {
  let query = db.selectFrom('tenants as t').select(['t.id', 't.name']).orderBy('t.name');
  if (!isBroken('deleted-tenant-in-flat-list')) query = query.where('t.deleted_at', 'is', null);
  if (filter.tenantId !== null) query = query.where('t.id', '=', filter.tenantId);
  if (filter.withUsers)
    query = query.where(sql<boolean>`exists (select 1 from users u where u.tenant_id = t.id and u.deleted_at is null)`);
  return query.execute();
}

export async function findLiveTenantByName(db: Db, name: string) {
  // No tenant's name holds a NUL (names are slugs), and the database refuses one in a text parameter:
  // a path such as `/a%00/graphql` names no tenant (server/src/security/attack-regressions.test.ts).
  if (name.includes('\u0000')) return undefined;
  return db
    .selectFrom('tenants')
    .select(['id', 'name'])
    .where('name', '=', name)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * The tenant's own columns (an audit record's before), its row locked until the transaction ends
 * (FOR NO KEY UPDATE: rows being added that refer to the tenant do not wait for it).
 */
export function lockTenant(trx: Transaction<Database>, id: number) {
  return trx
    .selectFrom('tenants')
    .select(['id', 'name', 'cnpj', 'template', 'pool', 'plan', 'user_limit', 'ticket_limit', 'deleted_at'])
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

/** Tenants as the contract's rows (./tenant-dto.ts), in no particular order. */
export function tenantRows(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return tenantQuery(db as Kysely<Database>)
    .where('t.id', 'in', [...ids])
    .execute();
}

export async function tenantNameTaken(db: Db, name: string): Promise<boolean> {
  return Boolean(await db.selectFrom('tenants').select('id').where('name', '=', name).executeTakeFirst());
}

export async function featureOptions(db: Db): Promise<string[]> {
  return (await db.selectFrom('feature_options').select('option').orderBy('option').execute()).map((r) => r.option);
}

export interface NewTenantRow {
  name: string;
  cnpj: string;
  template: string;
  pool: string;
  plan: Plan;
  user_limit: number;
  ticket_limit: number;
}

/** Inserts the tenant with every feature option, the given ones enabled. */
export async function insertTenant(
  trx: Transaction<Database>,
  values: NewTenantRow,
  options: readonly string[],
  enabled: readonly string[],
): Promise<number> {
  const created = await trx.insertInto('tenants').values(values).returning('id').executeTakeFirstOrThrow();
  if (options.length > 0) {
    await trx
      .insertInto('tenant_features')
      .values(options.map((option) => ({ tenant_id: created.id, option, enabled: enabled.includes(option) })))
      .execute();
  }
  return created.id;
}

/** Soft-deletes (now) or restores the tenant; answers the stored `deleted_at`. */
export async function setTenantDeleted(db: Db, id: number, deleted: boolean): Promise<Date | null> {
  const row = await db
    .updateTable('tenants')
    .set({ deleted_at: deleted ? new Date() : null })
    .where('id', '=', id)
    .returning('deleted_at')
    .executeTakeFirstOrThrow();
  return row.deleted_at;
}

/** Deletes the tenant row; its rows in other tables go by the foreign keys' `on delete cascade`. */
export async function purgeTenant(db: Db, id: number): Promise<void> {
  await db.deleteFrom('tenants').where('id', '=', id).executeTakeFirstOrThrow();
}

/** Whether a tenant other than `id`, live or deleted, has this name. */
export async function tenantNameTakenByOther(db: Db, name: string, id: number): Promise<boolean> {
  return Boolean(
    await db.selectFrom('tenants').select('id').where('name', '=', name).where('id', '!=', id).executeTakeFirst(),
  );
}

/**
 * Writes the tenant's columns and raises its version in one statement; with `expected`, only while the tenant
 * is at that version (docs/lists.md, Versions). Answers the new version, or undefined when it was not.
 */
async function updateVersioned(
  db: Db,
  id: number,
  values: Updateable<TenantsTable>,
  expected: number | undefined,
): Promise<number | undefined> {
  let query = db
    .updateTable('tenants')
    .set({ ...values, version: nextVersion })
    .where('id', '=', id);
  if (expected !== undefined) query = query.where('version', '=', expected);
  return (await query.returning('version').executeTakeFirst())?.version;
}

export function updateTenant(
  db: Db,
  id: number,
  values: { name: string; cnpj: string; template: string; pool: string },
  expected?: number,
): Promise<number | undefined> {
  return updateVersioned(db, id, values, expected);
}

export function setTenantPlan(
  db: Db,
  id: number,
  plan: { plan: Plan; user_limit: number; ticket_limit: number },
  expected?: number,
): Promise<number | undefined> {
  return updateVersioned(db, id, plan, expected);
}

/**
 * Raises the version of the tenant's feature set, only while it is at `expected` when given: the check and
 * the write of a feature change in one statement, its row written after it (./service.ts `setFeature`).
 */
export async function raiseFeaturesVersion(db: Db, tenantId: number, expected?: number): Promise<number | undefined> {
  let query = db
    .updateTable('tenants')
    .set({ features_version: sql<number>`features_version + 1` })
    .where('id', '=', tenantId);
  if (expected !== undefined) query = query.where('features_version', '=', expected);
  return (await query.returning('features_version').executeTakeFirst())?.features_version;
}

/** The version of the tenant's feature set (each `Feature.version`). */
export async function featuresVersion(db: Db, tenantId: number): Promise<number> {
  const row = await db
    .selectFrom('tenants')
    .select('features_version')
    .where('id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return row.features_version;
}

/** Every feature option with the tenant's setting (false when never set), by option. */
export function tenantFeatures(db: Db, tenantId: number) {
  return db
    .selectFrom('feature_options as o')
    .leftJoin('tenant_features as f', (join) =>
      join.onRef('f.option', '=', 'o.option').on('f.tenant_id', '=', tenantId),
    )
    .select(['o.option', 'f.enabled'])
    .orderBy('o.option')
    .execute();
}

export async function featureOptionExists(db: Db, option: string): Promise<boolean> {
  return Boolean(
    await db.selectFrom('feature_options').select('option').where('option', '=', option).executeTakeFirst(),
  );
}

/**
 * Whether the option is enabled for the tenant (false when never set). The tenant's row is locked
 * first, so two changes of a setting never yet stored still run one after the other.
 */
export async function lockTenantFeature(
  trx: Transaction<Database>,
  tenantId: number,
  option: string,
): Promise<boolean> {
  await trx.selectFrom('tenants').select('id').where('id', '=', tenantId).forNoKeyUpdate().execute();
  const row = await trx
    .selectFrom('tenant_features')
    .select('enabled')
    .where('tenant_id', '=', tenantId)
    .where('option', '=', option)
    .forUpdate()
    .executeTakeFirst();
  return row?.enabled ?? false;
}

export async function setTenantFeature(db: Db, tenantId: number, option: string, enabled: boolean): Promise<void> {
  await db
    .insertInto('tenant_features')
    .values({ tenant_id: tenantId, option, enabled })
    .onConflict((oc) => oc.columns(['tenant_id', 'option']).doUpdateSet({ enabled, updated_at: new Date() }))
    .execute();
}
