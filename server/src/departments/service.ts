import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { conflict, invalid, notFound } from '../shared/domain-error';
import type { TenantRef } from '../tenants/scope';
import * as repo from './repository';

/**
 * Departments of a tenant (contracts: REST `departmentList`, `departmentCreate`, `departmentUpdate`;
 * GraphQL `departments`, `createDepartment`, `updateDepartment`). Names are unique within a tenant,
 * ignoring case: a check first for the common case, the index departments_tenant_name_key (migration
 * 0013) when two requests race. A department of another tenant is as unknown as a missing one (404).
 */

export const DEPARTMENT_NAME_MAX_LENGTH = 80;

/** A department name: trimmed, 1–80 characters, not blank (contracts/openapi.yaml `DepartmentCreate`). */
function checkName(value: string): string {
  const name = value.trim();
  if (!name) throw invalid('name', 'must not be blank');
  if ([...value].length > DEPARTMENT_NAME_MAX_LENGTH)
    throw invalid('name', `must have at most ${DEPARTMENT_NAME_MAX_LENGTH} characters`);
  return name;
}

export interface DepartmentChange {
  name?: string;
  activated?: boolean;
}

export function createDepartmentsService({ db }: { db: Kysely<Database> }) {
  async function assertNameFree(tenant: TenantRef, name: string, exceptId?: number) {
    if (await repo.departmentNameTaken(db, tenant.id, name, exceptId))
      throw conflict('A department with this name already exists', 'name');
  }

  return {
    /** The tenant's departments, ascending by name (then id). */
    list(tenant: TenantRef) {
      return repo.tenantDepartments(db, tenant.id);
    },

    /** A new, activated department of the tenant. */
    async create(tenant: TenantRef, input: { name: string }) {
      const name = checkName(input.name);
      await assertNameFree(tenant, name);
      return repo.insertDepartment(db, { tenant_id: tenant.id, name });
    },

    /** Renames, activates or deactivates a department of the tenant; users keep pointing at it. */
    async update(tenant: TenantRef, id: number, change: DepartmentChange) {
      const set: { name?: string; activated?: boolean } = {};
      if (change.name !== undefined) set.name = checkName(change.name);
      if (change.activated !== undefined) set.activated = change.activated;
      if (Object.keys(set).length === 0) throw invalid('name', 'name or activated is required');
      const row = await repo.findTenantDepartment(db, tenant.id, id);
      if (!row) throw notFound('Department not found', 'id');
      if (set.name !== undefined) await assertNameFree(tenant, set.name, row.id);
      return repo.updateDepartment(db, row.id, set);
    },
  };
}

export type DepartmentsService = ReturnType<typeof createDepartmentsService>;
