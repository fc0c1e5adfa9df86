import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { TenantRef } from '../tenants/scope';
import { tenantDepartments } from './repository';

/** Departments of a tenant (contracts: REST `departmentList`, GraphQL `departments`). */
export function createDepartmentsService({ db }: { db: Kysely<Database> }) {
  return {
    /** The tenant's departments, ascending by name (then id). */
    list(tenant: TenantRef) {
      return tenantDepartments(db, tenant.id);
    },
  };
}

export type DepartmentsService = ReturnType<typeof createDepartmentsService>;
