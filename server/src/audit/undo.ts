import type { Transaction } from 'kysely';
import type { AuditChange, AuditOperation } from '../../../src/domain/audit';
import type { Database } from '../db/schema';
import type { Actor } from '../access/caller';
import type { Recorder } from './trail';

/**
 * What an undo needs from the audit log (docs/lists.md, Undo on the server): which records can be undone,
 * for how long, and the comparison of a record's `after` values with the target's values now. The undo
 * itself is server/src/undo/service.ts; each resource's service puts its own values back (`revert`), with
 * its operation's authorization, in the undo's transaction.
 */

/** How long after its record a change can be undone. */
export const UNDO_WINDOW_MS = 10 * 60 * 1000;

/**
 * The operations with a safe inverse, and the fields their records must name for it. Sign-ins,
 * passwords, reset links, purges, disconnections, syncs and creations (with what depends on what they
 * created) have none: their records answer 409 `not_undoable`.
 */
const UNDOABLE: Partial<Record<AuditOperation, readonly string[] | 'any'>> = {
  'user.update': 'any',
  'user.block': ['blocked'],
  'user.unblock': ['blocked'],
  'user.delete': 'any',
  'user.restore': ['deleted_at'],
  // Only the requirement to enrol: a reset forgot the secret, which nothing can bring back.
  'user.two-factor': ['two_factor_enrolment_required'],
  'tenant.update': 'any',
  'tenant.plan': 'any',
  'tenant.feature': 'any',
  'tenant.delete': ['deleted_at'],
  'tenant.restore': ['deleted_at'],
  'role.rename': ['display_name'],
  'role.permissions': ['permissions'],
  'department.update': 'any',
  'instance.update': 'any',
  'connection.update': 'any',
};

/** A bulk run's own record (docs/lists.md, Bulk actions): undone as one with its rows. */
export const BATCH_OPERATIONS: ReadonlySet<string> = new Set(['user.bulk', 'tenant.feature-bulk']);
/** The bulk actions whose rows have a safe inverse (ending sessions has none). */
const UNDOABLE_USER_BULK = new Set(['block', 'unblock', 'require_two_factor', 'delete'].map((a) => JSON.stringify(a)));

/** Whether a record of `operation` with these changes can be undone (ignoring its age and earlier undos). */
export function isUndoable(operation: string, changes: readonly AuditChange[]): boolean {
  if (operation === 'tenant.feature-bulk') return true;
  if (operation === 'user.bulk')
    return changes.some(
      (c) => c.field === 'undo_of' || (c.field === 'action' && c.after !== null && UNDOABLE_USER_BULK.has(c.after)),
    );
  const fields = UNDOABLE[operation as AuditOperation];
  if (fields === undefined) return false;
  // A change that changed nothing has nothing to undo.
  if (changes.length === 0) return false;
  return fields === 'any' || changes.every((c) => fields.includes(c.field));
}

/** Until when a record can be undone: null when it cannot (not undoable, or undone already). */
export function undoableUntil(
  row: { at: Date; operation: string; changes: readonly AuditChange[] },
  undoneBy: number | null,
): Date | null {
  if (undoneBy !== null || !isUndoable(row.operation, row.changes)) return null;
  return new Date(row.at.getTime() + UNDO_WINDOW_MS);
}

/** One record to undo, as the service of its operation receives it. */
export interface UndoStep {
  /** The record undone: the reversing records carry it as `undo_of`. */
  recordId: number;
  operation: AuditOperation;
  targetId: number;
  tenantId: number | null;
  /** The tenant of whoever made the change (a staff member's is the back office's). */
  actorTenantId: number | null;
  changes: readonly AuditChange[];
}

/** A field whose value is no longer the one the record left: the record's `after` beside the value now. */
export interface UndoMismatch {
  field: string;
  recorded: string | null;
  current: string | null;
}

/** What a service's `revert` answers: the mismatches (nothing was written), or what to do after the commit. */
export interface RevertOutcome {
  mismatches: UndoMismatch[];
  /** Work after the commit (sessions ended, sockets told), as the operation itself does it. */
  afterCommit?: () => Promise<void> | void;
}

/** The signature every service's `revert` has: `record` writes with `undo_of` set. */
export type Revert = (
  actor: Actor,
  trx: Transaction<Database>,
  record: Recorder,
  step: UndoStep,
) => Promise<RevertOutcome>;

function json(value: unknown): string | null {
  return value === undefined || value === null
    ? null
    : JSON.stringify(value instanceof Date ? value.toISOString() : value);
}

/** Compares JSON texts as values (key order and spacing aside). */
function sameJson(a: string | null, b: string | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
}

/** The fields of `changes` whose value in `current` is not the recorded `after`. */
export function mismatchesOf(
  changes: readonly AuditChange[],
  current: Readonly<Record<string, unknown>>,
): UndoMismatch[] {
  const out: UndoMismatch[] = [];
  for (const change of changes) {
    const now = json(current[change.field]);
    if (!sameJson(now, change.after)) out.push({ field: change.field, recorded: change.after, current: now });
  }
  return out;
}

/** The recorded `before` values, parsed (null where the field had none). */
export function beforeValuesOf(changes: readonly AuditChange[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const change of changes) values[change.field] = change.before === null ? null : JSON.parse(change.before);
  return values;
}
