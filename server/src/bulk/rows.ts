import type { Kysely } from 'kysely';
import type { Actor } from '../access/caller';
import type { AuditOperation } from '../../../src/domain/audit';
import { auditWho, type AuditTrail } from '../audit/trail';
import { conflictCode, invalid, isDomainError, type DomainError } from '../base/domain-error';
import type { Database } from '../db/schema';

/**
 * Bulk actions (docs/lists.md, Bulk actions): a list of ids, each row run through the service method of
 * the single action with its own authorization, in its own transaction, so one row's refusal or failure
 * leaves the others. The methods take a {@link RowMode}: they run every check of the single action on the
 * locked row, then refuse a change that would change nothing (409 `already`, answered `unchanged` and
 * recorded nowhere) and, on a dry run, stop before the first write ({@link DryRunStop}, which rolls the
 * row's transaction back).
 */

/** The most ids one request names; a larger selection goes in chunks of the same batch. */
export const BULK_MAX_IDS = 100;
/** How long after its start a batch takes more chunks (a retry of the failed rows included). */
export const BATCH_OPEN_SECONDS = 60 * 60;

/** How a single action runs for one row of a bulk run; absent: as the single action always did. */
export type RowMode = 'dry-run' | 'run';

/** Thrown by a single action on a dry run once every check passed: it would change the row. */
export class DryRunStop extends Error {
  constructor() {
    super('dry run: the row would change');
    this.name = 'DryRunStop';
  }
}

/**
 * Called by a single action with the row locked, after its checks and before its first write: refuses a
 * no-op of a bulk run (`already`: answered `unchanged`), and stops a dry run.
 */
export function rowGate(mode: RowMode | undefined, alreadyAsAsked: boolean, message: string): void {
  if (mode === undefined) return;
  if (alreadyAsAsked) throw conflictCode('already', message);
  if (mode === 'dry-run') throw new DryRunStop();
}

export type BulkOutcome = 'change' | 'changed' | 'unchanged' | 'refused' | 'failed';

export interface BulkResult {
  id: number;
  name: string | null;
  outcome: BulkOutcome;
  reason?: string;
  message?: string;
}

export interface BulkAnswer {
  batch_id: number | null;
  results: BulkResult[];
}

/** A fault injected for one row (server/src/plugins/faults.ts): the message the row fails with, or undefined. */
export type RowFault = (id: number) => string | undefined;

export interface BulkLog {
  error(details: object, message: string): void;
}

/** What one row's error means for the answer: refused (with the single action's reason) or failed. */
function refusalOf(error: DomainError): Omit<BulkResult, 'id' | 'name'> {
  switch (error.kind) {
    case 'not_found':
      // The same answer whether the id exists elsewhere or not at all (another tenant's user).
      return { outcome: 'refused', reason: 'not_found', message: 'Not found' };
    case 'forbidden':
      return { outcome: 'refused', reason: 'forbidden', message: error.message };
    case 'conflict':
      return { outcome: 'refused', reason: error.details.code ?? 'conflict', message: error.message };
    default:
      return { outcome: 'refused', reason: error.kind, message: error.message };
  }
}

/**
 * Runs `work` for each distinct id, in the order given: each row's outcome, with the name of the rows the
 * caller may see (`names`, asked once for them all). Never throws for one row.
 */
export async function eachRow(
  ids: readonly number[],
  options: {
    dryRun: boolean;
    fault?: RowFault | undefined;
    log?: BulkLog | undefined;
    work: (id: number) => Promise<void>;
    names: (ids: number[]) => Promise<Map<number, string>>;
  },
): Promise<BulkResult[]> {
  const rows: Omit<BulkResult, 'name'>[] = [];
  for (const id of [...new Set(ids)]) {
    const injected = options.dryRun ? undefined : options.fault?.(id);
    if (injected !== undefined) {
      rows.push({ id, outcome: 'failed', reason: 'failed', message: injected });
      continue;
    }
    try {
      await options.work(id);
      rows.push({ id, outcome: options.dryRun ? 'change' : 'changed' });
    } catch (error) {
      if (error instanceof DryRunStop) rows.push({ id, outcome: 'change' });
      else if (isDomainError(error) && error.kind === 'conflict' && error.details.code === 'already')
        rows.push({ id, outcome: 'unchanged' });
      else if (isDomainError(error)) rows.push({ id, ...refusalOf(error) });
      else {
        options.log?.error({ err: error, id }, 'bulk: a row failed');
        rows.push({ id, outcome: 'failed', reason: 'failed', message: 'The server could not change this row' });
      }
    }
  }
  const seen = rows.filter((r) => r.reason !== 'not_found').map((r) => r.id);
  const names = seen.length === 0 ? new Map<number, string>() : await options.names(seen);
  return rows.map((r) => ({ ...r, name: r.reason === 'not_found' ? null : (names.get(r.id) ?? null) }));
}

/** What a batch is for: its operation, and the action its chunks must repeat (`block`, `chatbot:on`…). */
export interface BatchKind {
  operation: Extract<AuditOperation, 'user.bulk' | 'tenant.feature-bulk'>;
  action: string;
}

/**
 * The batch a real chunk belongs to. Without `batchId`: writes the batch's record (the action and how many
 * rows were selected) and answers its id. With one: the id of a batch this same user started for the same
 * action within the hour; anything else (another user's batch, another action, an old one, a record that
 * is no batch) is one refusal that tells nothing of which.
 */
export async function openBatch(
  deps: { db: Kysely<Database>; audit: AuditTrail },
  actor: Actor,
  kind: BatchKind,
  input: { batchId?: number | undefined; total: number; changes?: { field: string; value: unknown }[] },
): Promise<number> {
  if (input.batchId !== undefined) {
    await assertBatch(deps.db, actor, kind, input.batchId);
    return input.batchId;
  }
  return deps.audit.transaction(auditWho(actor), async (_trx, record) =>
    record({
      operation: kind.operation,
      target: { id: null, name: null },
      tenantId: actor.tenantId,
      changes: [
        { field: 'action', before: null, after: JSON.stringify(kind.action) },
        ...(input.changes ?? []).map((c) => ({ field: c.field, before: null, after: JSON.stringify(c.value) })),
        { field: 'selected', before: null, after: JSON.stringify(input.total) },
      ],
    }),
  );
}

/** A batch id sent back by a later chunk: this user's, this action's, opened within the hour, not undone. */
export async function assertBatch(db: Kysely<Database>, actor: Actor, kind: BatchKind, batchId: number): Promise<void> {
  const row = await db
    .selectFrom('audit_log')
    .select(['id', 'changes'])
    .where('id', '=', batchId)
    .where('operation', '=', kind.operation)
    .where('actor_user_id', '=', actor.userId)
    .where('batch_id', 'is', null)
    .where('at', '>', new Date(Date.now() - BATCH_OPEN_SECONDS * 1000))
    // An undone batch is closed: a row added after its undo would be one the undo never put back.
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('audit_log as undo').select('undo.id').whereRef('undo.undo_of', '=', 'audit_log.id'))),
    )
    .executeTakeFirst();
  const changes = (row?.changes ?? []) as { field: string; after: string | null }[];
  const action = changes.find((c) => c.field === 'action')?.after;
  if (!row || action !== JSON.stringify(kind.action))
    throw invalid('batch_id', 'Not a batch of yours for this action, opened within the hour');
}

/** The ids, at most {@link BULK_MAX_IDS} (the contract says so; checked again for callers other than REST). */
export function checkIds(ids: readonly number[]): void {
  if (ids.length === 0 || ids.length > BULK_MAX_IDS)
    throw invalid('ids', `from 1 to ${BULK_MAX_IDS} ids per request; send a larger selection in chunks`);
}
