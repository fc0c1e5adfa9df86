import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { nextVersion } from '../audit/versions';
import { instanceDto, instanceQuery } from './instance-dto';

/** The instances service's SQL (server/src/instances/service.ts); the sync's is in ./sync.ts. */

type Db = Kysely<Database> | Transaction<Database>;

/** The tenant's instances as the contract's `Instance`, by id. */
export async function tenantInstances(db: Db, tenantId: number) {
  return (
    await instanceQuery(db as Kysely<Database>)
      .where('i.tenant_id', '=', tenantId)
      .orderBy('i.id')
      .execute()
  ).map(instanceDto);
}

/** The tenant's instances as id, name and activated, by id, without the given ids. */
export async function instanceSummaries(db: Db, tenantId: number, exceptIds: readonly number[]) {
  const rows = await db
    .selectFrom('instances')
    .select(['id', 'name', 'activated', 'version'])
    .where('tenant_id', '=', tenantId)
    .orderBy('id')
    .execute();
  // Left out here, not in the SQL: the ids come from the caller (GraphQL `remove_ids`, a variable no token
  // limit bounds), and one statement takes at most 65,535 parameters (server/src/security/attack-regressions.test.ts).
  if (exceptIds.length === 0) return rows;
  const except = new Set(exceptIds);
  return rows.filter((row) => !except.has(row.id));
}

export function findTenantInstance(db: Db, tenantId: number, id: number) {
  return db
    .selectFrom('instances')
    .select(['id', 'tenant_id'])
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
}

/**
 * One instance of the tenant with the columns a person changes and a sync start sets, or undefined;
 * its row locked until the transaction ends (the before of a change two requests could make at once).
 */
export function lockTenantInstance(trx: Transaction<Database>, tenantId: number, id: number) {
  return trx
    .selectFrom('instances')
    .select([
      'id',
      'name',
      'activated',
      'is_official',
      'is_unlimited',
      'status',
      'sync_progress',
      'synced_messages',
      'total_messages',
    ])
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

/** Whether another instance of the tenant has this name, ignoring case. */
export async function instanceNameTaken(db: Db, tenantId: number, name: string, exceptId?: number): Promise<boolean> {
  let query = db
    .selectFrom('instances')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return Boolean(await query.executeTakeFirst());
}

const instanceColumns = ['id', 'name', 'activated', 'is_official', 'is_unlimited'] as const;

/** Inserts the instance; answers its columns as stored (defaults included). */
export function insertInstance(
  db: Db,
  values: { tenant_id: number; name: string; is_official: boolean; is_unlimited: boolean },
) {
  return db.insertInto('instances').values(values).returning(instanceColumns).executeTakeFirstOrThrow();
}

/**
 * Changes the instance and raises its version in one statement (docs/lists.md, Versions); with `expected`,
 * only while it is at that version. Answers its columns as stored, or undefined when the version was not
 * `expected`.
 */
export function updateInstance(
  db: Db,
  id: number,
  set: { name?: string; activated?: boolean; is_official?: boolean; is_unlimited?: boolean },
  expected?: number,
) {
  let query = db
    .updateTable('instances')
    .set({ ...set, version: nextVersion })
    .where('id', '=', id);
  if (expected !== undefined) query = query.where('version', '=', expected);
  return query.returning([...instanceColumns, 'version']).executeTakeFirst();
}

/** The tenant's connections with their instance's name, by id. */
export function tenantConnections(db: Db, tenantId: number) {
  return db
    .selectFrom('connections as c')
    .innerJoin('instances as i', 'i.id', 'c.instance_id')
    .select(connectionColumns)
    .where('c.tenant_id', '=', tenantId)
    .orderBy('c.id')
    .execute();
}

const connectionColumns = [
  'c.id',
  'c.instance_id',
  'i.name as instance_name',
  'c.name',
  'c.activated',
  'c.phone',
  'c.status',
  'c.last_seen_at',
  'c.version',
] as const;

/** One connection of the tenant with its instance's name, or undefined. */
export function findTenantConnection(db: Db, tenantId: number, id: number) {
  return db
    .selectFrom('connections as c')
    .innerJoin('instances as i', 'i.id', 'c.instance_id')
    .select(connectionColumns)
    .where('c.id', '=', id)
    .where('c.tenant_id', '=', tenantId)
    .executeTakeFirst();
}

/** Locks the tenant's connection row until the transaction ends; whether it exists. */
export async function lockTenantConnection(trx: Transaction<Database>, tenantId: number, id: number): Promise<boolean> {
  return Boolean(
    await trx
      .selectFrom('connections')
      .select('id')
      .where('id', '=', id)
      .where('tenant_id', '=', tenantId)
      .forNoKeyUpdate()
      .executeTakeFirst(),
  );
}

/** Whether another connection of the instance has this name, ignoring case. */
export async function connectionNameTaken(
  db: Db,
  instanceId: number,
  name: string,
  exceptId?: number,
): Promise<boolean> {
  let query = db
    .selectFrom('connections')
    .select('id')
    .where('instance_id', '=', instanceId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return Boolean(await query.executeTakeFirst());
}

export async function insertConnection(
  db: Db,
  values: { tenant_id: number; instance_id: number; name: string },
): Promise<number> {
  return (await db.insertInto('connections').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

/**
 * Changes the connection and raises its version in one statement (docs/lists.md, Versions); with
 * `expected`, only while it is at that version. Answers the new version, or undefined when it was not.
 */
export async function updateConnection(
  db: Db,
  id: number,
  set: { name?: string; activated?: boolean },
  expected?: number,
): Promise<number | undefined> {
  let query = db
    .updateTable('connections')
    .set({ ...set, version: nextVersion })
    .where('id', '=', id);
  if (expected !== undefined) query = query.where('version', '=', expected);
  return (await query.returning('version').executeTakeFirst())?.version;
}
