import type { Kysely } from 'kysely';
import type { AuditOperation } from '../../../src/domain/audit';
import type { Actor } from '../access/caller';
import { authorize, guardService } from '../access/guard';
import { policyOf } from '../access/policies';
import { auditRecord, batchRecords, lockAuditRecord, undoneBy, type AuditRow } from '../audit/repository';
import { auditWho, type AuditTrail } from '../audit/trail';
import { BATCH_OPERATIONS, isUndoable, UNDO_WINDOW_MS, type Revert, type UndoStep } from '../audit/undo';
import { conflictCode, isUniqueViolation, notFound, undoConflict, type UndoConflictRow } from '../base/domain-error';
import type { Database } from '../db/schema';

/**
 * Undo on the server (docs/lists.md, Undo on the server; REST `POST /api/audit/{id}/undo`, auditUndo):
 * for {@link UNDO_WINDOW_MS} after a recorded change, its `before` values go back only if the target
 * still holds its `after` values.
 *
 * The order of checks: the record visible to the caller (its own tenant's, or any for staff; else 404),
 * its operation has a safe inverse (409 `not_undoable`), not undone already (409 `already_undone`), within
 * the window (409 `undo_expired`); then, in one transaction, the record's row locked (concurrent undos of
 * one record queue here, and the later ones find it undone), and the service of the undone operation
 * (`revert` of users, tenants, roles, departments or instances) locks its target, authorizes the caller
 * as the operation does (its policy and its rules: anyone who may make the change may undo it, nobody
 * else), compares and writes. Any mismatch rolls everything back: 409 `undo_conflict` with the fields.
 * The reversing records carry `undo_of` (unique, migration 0024), so an undo is itself a record that can
 * be undone, and a record is undone at most once whatever runs at the same time.
 */

/** The services that put their own operations' values back. */
export interface Reverters {
  users: { revert: Revert };
  tenants: { revert: Revert };
  roles: { revert: Revert };
  departments: { revert: Revert };
  instances: { revert: Revert };
}

const SERVICE_OF: Partial<Record<AuditOperation, keyof Reverters>> = {
  'user.update': 'users',
  'user.block': 'users',
  'user.unblock': 'users',
  'user.delete': 'users',
  'user.restore': 'users',
  'user.two-factor': 'users',
  'tenant.update': 'tenants',
  'tenant.plan': 'tenants',
  'tenant.feature': 'tenants',
  'tenant.delete': 'tenants',
  'tenant.restore': 'tenants',
  'role.rename': 'roles',
  'role.permissions': 'roles',
  'department.update': 'departments',
  'instance.update': 'instances',
  'connection.update': 'instances',
};

/** What an undo answers: the record undone and the first record that undid it. */
export interface UndoResult {
  undone: number;
  by: number;
}

export interface UndoServiceDeps {
  db: Kysely<Database>;
  audit: AuditTrail;
  services: Reverters;
  /** The clock the window is read on (tests move it). */
  now?: () => number;
}

const alreadyUndone = () => conflictCode('already_undone', 'This change was undone already');

const notUndoable = () => conflictCode('not_undoable', 'This change cannot be undone');

/** One row of a batch (or a single record) as its service's `revert` takes it; null when it has no inverse. */
function stepOf(row: AuditRow): { step: UndoStep; service: keyof Reverters } | null {
  const service = SERVICE_OF[row.operation as AuditOperation];
  if (service === undefined || row.target_id === null || !isUndoable(row.operation, row.changes)) return null;
  return {
    service,
    step: {
      recordId: row.id,
      operation: row.operation as AuditOperation,
      targetId: row.target_id,
      tenantId: row.tenant_id,
      actorTenantId: row.actor_tenant_id,
      changes: row.changes,
    },
  };
}

export function createUndoService({ db, audit, services, now = () => Date.now() }: UndoServiceDeps) {
  /**
   * A bulk run's record (docs/lists.md, Bulk actions) undoes every row of its batch in one transaction, all
   * or none: the batch's record and each row's locked, each row reverted by its service; any row whose target
   * changed since (or that was undone on its own) refuses the whole batch with 409 `undo_conflict` listing
   * those rows. The undo writes a record of the batch's operation with `undo_of` = the batch, and each row's
   * reversing record names it as its batch, so the undo of a batch is itself a batch that can be undone.
   */
  async function undoBatch(actor: Actor, batch: AuditRow): Promise<UndoResult> {
    const rows = await batchRecords(db, batch.id);
    const steps = rows.map(stepOf);
    if (rows.length === 0 || steps.some((s) => s === null) || !isUndoable(batch.operation, batch.changes))
      throw notUndoable();
    if ((await undoneBy(db, batch.id)) !== null) throw alreadyUndone();
    if (now() > batch.at.getTime() + UNDO_WINDOW_MS)
      throw conflictCode('undo_expired', 'This change can no longer be undone: the time to undo it has passed');
    // Each row's service decides in its `revert`, but a row undone on its own since is never handed to it
    // and is answered as a conflict naming its target: so the caller must first be one its rows' services
    // admit (their `revert` policies), or the conflict would name users to a caller who may act on none.
    for (const service of new Set(steps.flatMap((s) => (s ? [s.service] : []))))
      authorize(actor, policyOf(`${service}.revert`));
    let afters: ((() => Promise<void> | void) | undefined)[];
    try {
      afters = await audit.transaction(auditWho(actor), async (trx, record) => {
        await lockAuditRecord(trx, batch.id);
        if ((await undoneBy(trx, batch.id)) !== null) throw alreadyUndone();
        // Read again under the batch's lock: a later chunk's rows that committed since the first read are
        // the batch's too, and none can join it from here on (server/src/audit/trail.ts `writeAudit`).
        const held = await batchRecords(trx, batch.id);
        const known = new Set(rows.map((row) => row.id));
        const more = held.filter((row) => !known.has(row.id));
        if (more.some((row) => stepOf(row) === null)) throw notUndoable();
        rows.push(...more);
        steps.push(...more.map(stepOf));
        for (const row of rows) await lockAuditRecord(trx, row.id);
        const undoBatchId = await record({
          operation: batch.operation as AuditOperation,
          target: { id: batch.target_id, name: batch.target_name },
          tenantId: batch.tenant_id,
          changes: [{ field: 'undo_of', before: null, after: String(batch.id) }],
          undoOf: batch.id,
        });
        const conflicts: UndoConflictRow[] = [];
        const after: ((() => Promise<void> | void) | undefined)[] = [];
        // Reverted in one order for every batch, by tenant then target (each revert locks its target, a
        // restore its tenant first): two batch undos whose rows share targets then lock them in the same
        // order, where the rows' own order (as each batch ran them) deadlocked one against the other.
        const order = [...rows.keys()].sort(
          (a, b) =>
            (rows[a]?.tenant_id ?? 0) - (rows[b]?.tenant_id ?? 0) ||
            (rows[a]?.target_id ?? 0) - (rows[b]?.target_id ?? 0) ||
            a - b,
        );
        for (const index of order) {
          const row = rows[index];
          if (!row) throw notUndoable();
          const { step, service } = steps[index] ?? {};
          if (!step || !service) throw notUndoable();
          const by = await undoneBy(trx, row.id);
          if (by !== null) {
            conflicts.push({
              record_id: row.id,
              target_id: step.targetId,
              target_name: row.target_name,
              fields: [{ field: 'undone_by', recorded: null, current: String(by) }],
            });
            continue;
          }
          const outcome = await services[service].revert(
            actor,
            trx,
            (entry) => record({ ...entry, undoOf: row.id, batchId: undoBatchId }),
            step,
          );
          if (outcome.mismatches.length > 0)
            conflicts.push({
              record_id: row.id,
              target_id: step.targetId,
              target_name: row.target_name,
              fields: outcome.mismatches,
            });
          else after.push(outcome.afterCommit);
        }
        // Listed in the batch's own order, as its rows ran.
        if (conflicts.length > 0) throw undoConflict(conflicts.sort((a, b) => a.record_id - b.record_id));
        return after;
      });
    } catch (error) {
      if (isUniqueViolation(error) && error.constraint === 'audit_log_undo_of_key') throw alreadyUndone();
      throw error;
    }
    for (const work of afters) await work?.();
    const by = await undoneBy(db, batch.id);
    if (by === null) throw new Error(`undo: batch ${batch.id} was undone without a reversing record`);
    return { undone: batch.id, by };
  }

  return guardService('undo', {
    async undo(actor: Actor, id: number): Promise<UndoResult> {
      const row = await auditRecord(db, id);
      // Another tenant's record is not found, as the audit log would not show it (server/src/audit/service.ts).
      if (!row || !(actor.originBackoffice || (row.tenant_id !== null && row.tenant_id === actor.tenantId)))
        throw notFound('Audit record not found', 'id');
      if (BATCH_OPERATIONS.has(row.operation)) return undoBatch(actor, row);
      const service = SERVICE_OF[row.operation as AuditOperation];
      if (service === undefined || row.target_id === null || !isUndoable(row.operation, row.changes))
        throw notUndoable();
      if ((await undoneBy(db, row.id)) !== null) throw alreadyUndone();
      if (now() > row.at.getTime() + UNDO_WINDOW_MS)
        throw conflictCode('undo_expired', 'This change can no longer be undone: the time to undo it has passed');
      const step: UndoStep = {
        recordId: row.id,
        operation: row.operation as AuditOperation,
        targetId: row.target_id,
        tenantId: row.tenant_id,
        actorTenantId: row.actor_tenant_id,
        changes: row.changes,
      };
      let afterCommit: (() => Promise<void> | void) | undefined;
      try {
        afterCommit = await audit.transaction(auditWho(actor), async (trx, record) => {
          await lockAuditRecord(trx, row.id);
          // Read after the lock: an undo that held it has committed by now.
          if ((await undoneBy(trx, row.id)) !== null) throw alreadyUndone();
          const outcome = await services[service].revert(
            actor,
            trx,
            (entry) => record({ ...entry, undoOf: row.id }),
            step,
          );
          if (outcome.mismatches.length > 0) {
            const conflictRow: UndoConflictRow = {
              record_id: row.id,
              target_id: row.target_id ?? 0,
              target_name: row.target_name,
              fields: outcome.mismatches,
            };
            throw undoConflict([conflictRow]);
          }
          return outcome.afterCommit;
        });
      } catch (error) {
        // Two undos that both passed the lock cannot happen; the index is the last word all the same.
        if (isUniqueViolation(error) && error.constraint === 'audit_log_undo_of_key') throw alreadyUndone();
        throw error;
      }
      await afterCommit?.();
      const by = await undoneBy(db, row.id);
      if (by === null) throw new Error(`undo: record ${row.id} was undone without a reversing record`);
      return { undone: row.id, by };
    },
  });
}

export type UndoService = ReturnType<typeof createUndoService>;
