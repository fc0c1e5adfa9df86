import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { nextVersion } from '../audit/versions';

/** The departments service's SQL (server/src/departments/service.ts). */

type Db = Kysely<Database> | Transaction<Database>;

export function tenantDepartments(db: Db, tenantId: number) {
  return db
    .selectFrom('departments')
    .select(['id', 'name', 'activated', 'version'])
    .where('tenant_id', '=', tenantId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/**
 * One department of the tenant, or undefined (another tenant's is as unknown as a missing one), its
 * row locked until the transaction ends (the before of a change two requests could make at once).
 */
export function lockTenantDepartment(trx: Transaction<Database>, tenantId: number, id: number) {
  return trx
    .selectFrom('departments')
    .select(['id', 'name', 'activated'])
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

/** Whether another department of the tenant has this name, ignoring case. */
export async function departmentNameTaken(db: Db, tenantId: number, name: string, exceptId?: number): Promise<boolean> {
  let query = db
    .selectFrom('departments')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return Boolean(await query.executeTakeFirst());
}

export function insertDepartment(db: Db, values: { tenant_id: number; name: string }) {
  return db
    .insertInto('departments')
    .values(values)
    .returning(['id', 'name', 'activated', 'version'])
    .executeTakeFirstOrThrow();
}

/**
 * Changes the department and raises its version in one statement; with `expected`, only while it is at that
 * version (docs/lists.md, Versions). Undefined when it was not.
 */
export function updateDepartment(db: Db, id: number, set: { name?: string; activated?: boolean }, expected?: number) {
  let query = db
    .updateTable('departments')
    .set({ ...set, version: nextVersion })
    .where('id', '=', id);
  if (expected !== undefined) query = query.where('version', '=', expected);
  return query.returning(['id', 'name', 'activated', 'version']).executeTakeFirst();
}
