import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';

/** The departments service's SQL (server/src/departments/service.ts). */

type Db = Kysely<Database> | Transaction<Database>;

export function tenantDepartments(db: Db, tenantId: number) {
  return db
    .selectFrom('departments')
    .select(['id', 'name', 'activated'])
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
  return db.insertInto('departments').values(values).returning(['id', 'name', 'activated']).executeTakeFirstOrThrow();
}

export function updateDepartment(db: Db, id: number, set: { name?: string; activated?: boolean }) {
  return db
    .updateTable('departments')
    .set(set)
    .where('id', '=', id)
    .returning(['id', 'name', 'activated'])
    .executeTakeFirstOrThrow();
}
