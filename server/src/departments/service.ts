import type { Kysely, Transaction } from 'kysely';
import { changesOf, type AuditTrail, type Recorder } from '../audit/trail';
import { beforeValuesOf, mismatchesOf, type RevertOutcome, type UndoStep } from '../audit/undo';
import type { Database } from '../db/schema';
import type { Actor } from '../access/caller';
import { guardService } from '../access/guard';
import { auditWho } from '../audit/trail';
import { conflict, invalid, notFound } from '../base/domain-error';
import { lockLiveTenant, type TenantRef } from '../tenants/scope';
import * as repo from './repository';
import { sentVersion } from '../audit/versions';

/**
 * Departments of a tenant (contracts: REST `departmentList`, `departmentCreate`, `departmentUpdate`;
 * GraphQL `departments`, `createDepartment`, `updateDepartment`). Names are unique within a tenant,
 * ignoring case: a check first for the common case, the index departments_tenant_name_key (migration
 * 0013) when two requests race. A department of another tenant is as unknown as a missing one (404).
 *
 * Every successful change writes one audit record in its own transaction (server/src/audit/trail.ts):
 * `department.create` and `department.update`, the target being the department of its tenant, with
 * the before (read with the row locked) and after of `name` and `activated`. An update that sets the
 * values the department already has still succeeds and is recorded with no changes (one successful
 * call, one record); a refused call records nothing.
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
  /** The version the caller read: the change is refused (409 `stale`) unless it is current (docs/lists.md, Versions). */
  version?: number | null;
}

const FIELDS = ['name', 'activated'] as const;

export function createDepartmentsService({ db, audit }: { db: Kysely<Database>; audit: AuditTrail }) {
  async function assertNameFree(
    trx: Kysely<Database> | Transaction<Database>,
    tenant: TenantRef,
    name: string,
    exceptId?: number,
  ) {
    if (await repo.departmentNameTaken(trx, tenant.id, name, exceptId))
      throw conflict('A department with this name already exists', 'name');
  }

  return guardService('departments', {
    /** The tenant's departments, ascending by name (then id). */
    async list(_actor: Actor, tenant: TenantRef) {
      return repo.tenantDepartments(db, tenant.id);
    },

    /** A new, activated department of the tenant. */
    async create(actor: Actor, tenant: TenantRef, input: { name: string }) {
      const name = checkName(input.name);
      await assertNameFree(db, tenant, name);
      return audit.transaction(auditWho(actor), async (trx, record) => {
        const created = await repo.insertDepartment(trx, { tenant_id: tenant.id, name });
        await record({
          operation: 'department.create',
          target: { id: created.id, name: created.name },
          tenantId: tenant.id,
          changes: changesOf(null, created, FIELDS),
        });
        return created;
      });
    },

    /** Renames, activates or deactivates a department of the tenant; users keep pointing at it. */
    async update(actor: Actor, tenant: TenantRef, id: number, change: DepartmentChange) {
      const set: { name?: string; activated?: boolean } = {};
      if (change.name !== undefined) set.name = checkName(change.name);
      if (change.activated !== undefined) set.activated = change.activated;
      if (Object.keys(set).length === 0) throw invalid('name', 'name or activated is required');
      const sent = sentVersion(change.version);
      return audit.transaction(auditWho(actor), async (trx, record) => {
        const row = await repo.lockTenantDepartment(trx, tenant.id, id);
        if (!row) throw notFound('Department not found', 'id');
        if (set.name !== undefined) await assertNameFree(trx, tenant, set.name, row.id);
        const updated = await repo.updateDepartment(trx, row.id, set, sent);
        if (!updated) throw await audit.stale(trx, actor, { type: 'department', id: row.id }, sent ?? 0);
        await record({
          operation: 'department.update',
          target: { id: updated.id, name: updated.name },
          tenantId: tenant.id,
          changes: changesOf(row, updated, FIELDS),
          version: updated.version,
        });
        return updated;
      });
    },

    /**
     * Undoes a department's recorded change (server/src/undo/service.ts) in the undo's transaction: the
     * department of the record's tenant (the caller's own, except for staff; else not found) locked, its
     * values now compared with the record's `after`, then the `before` values put back (a name another
     * department took since is a conflict).
     */
    async revert(actor: Actor, trx: Transaction<Database>, record: Recorder, step: UndoStep): Promise<RevertOutcome> {
      const tenantId = step.tenantId;
      if (tenantId === null || (!actor.originBackoffice && tenantId !== actor.tenantId))
        throw notFound('Department not found', 'id');
      await lockLiveTenant(trx, tenantId);
      const row = await repo.lockTenantDepartment(trx, tenantId, step.targetId);
      if (!row) throw notFound('Department not found', 'id');
      const mismatches = mismatchesOf(step.changes, row);
      if (mismatches.length > 0) return { mismatches };
      const values = beforeValuesOf(step.changes);
      const set: { name?: string; activated?: boolean } = {};
      if (typeof values.name === 'string') {
        set.name = checkName(values.name);
        if (await repo.departmentNameTaken(trx, tenantId, set.name, row.id))
          throw conflict('A department with this name already exists', 'name');
      }
      if (typeof values.activated === 'boolean') set.activated = values.activated;
      const updated = await repo.updateDepartment(trx, row.id, set);
      if (!updated) throw notFound('Department not found', 'id');
      await record({
        operation: 'department.update',
        target: { id: updated.id, name: updated.name },
        tenantId,
        changes: changesOf(row, updated, FIELDS),
        // The update's own statement raised the version (./repository.ts): the trail must not raise it again.
        version: updated.version,
      });
      return { mismatches: [] };
    },
  });
}

export type DepartmentsService = ReturnType<typeof createDepartmentsService>;
