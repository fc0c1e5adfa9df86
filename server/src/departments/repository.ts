import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** The departments service's SQL (server/src/departments/service.ts). */
export function tenantDepartments(db: Kysely<Database>, tenantId: number) {
  return db
    .selectFrom('departments')
    .select(['id', 'name', 'activated'])
    .where('tenant_id', '=', tenantId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}
