import { sql, type Kysely, type Transaction } from 'kysely';
import { AUDIT_OPERATIONS, AUDIT_SECRET_FIELD, type AuditChange, type AuditOperation } from '../../../src/domain/audit';
import type { Database } from '../db/schema';
import type { EventBus, EventTenant } from '../base/events';
import type { Actor, Origin } from '../access/caller';
import { conflictCode, type DomainError } from '../base/domain-error';
import { raiseOrRead, staleError, versionedTarget, VERSIONING, type VersionedTarget } from './versions';
import { noteRecords } from '../base/request-records';
import { isUndoable } from './undo';

/**
 * The audit trail's writer (docs/product.md, Audit log; table `audit_log`, migration 0015).
 *
 * A change and its record commit together or not at all: services run the change through
 * {@link AuditTrail.transaction} and call `record` with the same transaction; the `AuditRecorded`
 * socket event (contracts/socket.md §3) goes out only after the commit. Values of fields whose name
 * looks like a secret (src/domain/audit.ts `AUDIT_SECRET_FIELD`) are never written.
 */

/** Where a call came from: the request's id and the caller's address. */
export type AuditOrigin = Origin;

/** Who acts: a signed-in user (or the one signing in), or nobody (the server itself, an unknown caller). */
export interface AuditWho {
  actor: { userId: number; tenantId: number } | null;
  origin: AuditOrigin;
}

/** Who acts, for the audit log: the signed-in user, from where. */
export function auditWho(actor: Actor): AuditWho {
  return { actor: { userId: actor.userId, tenantId: actor.tenantId }, origin: actor.origin };
}

/** The server acting on its own (the retention purge). */
export const SYSTEM: AuditWho = { actor: null, origin: { requestId: null, address: null } };

export interface AuditEntry {
  operation: AuditOperation;
  /** The record acted on; its type is the operation's (src/domain/audit.ts `AUDIT_OPERATIONS`). */
  target: { id: number | null; name: string | null };
  /** The tenant the target belongs to (null: shared by every tenant, as roles, or the server's own). */
  tenantId: number | null;
  changes?: readonly AuditChange[];
  /**
   * The target's version the change's own statement produced (a save that checked the version it was
   * sent: ./versions.ts). Absent: the trail raises the version itself, when the operation raises one.
   */
  version?: number;
  /** The record this one undoes (server/src/undo/service.ts; unique, migration 0024). */
  undoOf?: number;
  /** The batch record this row belongs to, when not the caller's (`origin.batchId`): an undone batch's rows. */
  batchId?: number;
}

type Db = Kysely<Database> | Transaction<Database>;

/** JSON text of a value, or null when there is none (undefined: the field does not exist on that side). */
function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value instanceof Date ? value.toISOString() : value);
}

/**
 * The fields whose value differs between `before` and `after` (either may be null: created, deleted),
 * limited to `fields` when given, without secrets.
 */
export function changesOf(
  before: Readonly<Record<string, unknown>> | null,
  after: Readonly<Record<string, unknown>> | null,
  fields?: readonly string[],
): AuditChange[] {
  const names = fields ?? [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const changes: AuditChange[] = [];
  for (const field of names) {
    if (AUDIT_SECRET_FIELD.test(field)) continue;
    const b = json(before?.[field]);
    const a = json(after?.[field]);
    if (b !== a) changes.push({ field, before: b, after: a });
  }
  return changes;
}

/** A written record, as the socket event carries it. */
export interface AuditWritten {
  id: number;
  at: string;
  operation: AuditOperation;
  targetType: (typeof AUDIT_OPERATIONS)[AuditOperation];
  targetId: number | null;
  targetName: string | null;
  /** The target's version this change produced (./versions.ts); null when it changes no versioned record. */
  targetVersion: number | null;
  /** Tenants whose connections hear of it: the target's and the actor's (to holders of `audit` only). */
  tenants: EventTenant[];
}

/** Writes one record with `db` (a transaction's, when the record belongs to a change). */
export async function writeAudit(db: Db, who: AuditWho, entry: AuditEntry): Promise<AuditWritten> {
  for (const change of entry.changes ?? [])
    if (AUDIT_SECRET_FIELD.test(change.field)) throw new Error(`audit: refusing to record field ${change.field}`);
  const actorId = who.actor?.userId ?? null;
  const actorTenantId = who.actor?.tenantId ?? null;
  const batchId = entry.batchId ?? who.origin.batchId ?? null;
  // A bulk row joins its batch only while the batch is not undone (docs/lists.md, Undo on the server): its
  // record shares the lock the batch's undo takes (server/src/undo/service.ts), so a row committing before
  // the undo is one the undo reverts, and one after it is refused and rolled back with its change.
  if (batchId !== null && entry.batchId === undefined && entry.undoOf === undefined) {
    await db.selectFrom('audit_log').select('id').where('id', '=', batchId).forShare().executeTakeFirst();
    const undone = await db.selectFrom('audit_log').select('id').where('undo_of', '=', batchId).executeTakeFirst();
    if (undone !== undefined) throw conflictCode('already_undone', 'This batch was undone: start a new one');
  }
  // Every audited change of a versioned record raises its version in the change's transaction
  // (docs/lists.md, Versions): by the change's own statement when it checked a sent version, else here.
  const versioning = VERSIONING[entry.operation];
  const target = versionedTarget(entry.operation, AUDIT_OPERATIONS[entry.operation], entry.target.id);
  const targetVersion =
    versioning === null || target === null
      ? null
      : versioning === 'raise' && entry.version !== undefined
        ? entry.version
        : ((await raiseOrRead(db, target, versioning)) ?? null);
  const row = await db
    .insertInto('audit_log')
    .values({
      actor_user_id: actorId,
      actor_name: sql<string | null>`(select name from users where id = ${actorId})`,
      actor_email: sql<string | null>`(select email from users where id = ${actorId})`,
      actor_tenant_id: actorTenantId,
      actor_tenant_name: sql<string | null>`(select name from tenants where id = ${actorTenantId})`,
      address: who.origin.address,
      request_id: who.origin.requestId,
      operation: entry.operation,
      target_type: AUDIT_OPERATIONS[entry.operation],
      target_id: entry.target.id,
      target_name: entry.target.name,
      tenant_id: entry.tenantId,
      tenant_name: sql<string | null>`(select name from tenants where id = ${entry.tenantId})`,
      changes: JSON.stringify(entry.changes ?? []),
      target_version: targetVersion,
      undo_of: entry.undoOf ?? null,
      batch_id: batchId,
    })
    .returning(['id', 'at', 'tenant_id', 'tenant_name', 'actor_tenant_id', 'actor_tenant_name'])
    .executeTakeFirstOrThrow();
  const tenants = new Map<number, EventTenant>();
  for (const [id, name] of [
    [row.tenant_id, row.tenant_name],
    [row.actor_tenant_id, row.actor_tenant_name],
  ] as const)
    if (id !== null && name !== null) tenants.set(id, { id, name });
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    operation: entry.operation,
    targetType: AUDIT_OPERATIONS[entry.operation],
    targetId: entry.target.id,
    targetName: entry.target.name,
    targetVersion,
    tenants: [...tenants.values()],
  };
}

/** Records to write inside a transaction; what the callback gets. Answers the record's id. */
export type Recorder = (entry: AuditEntry) => Promise<number>;

export interface AuditTrail {
  /**
   * Runs `work` in one transaction with a recorder bound to it: the records commit with the change,
   * and are announced on the socket after the commit. A failure anywhere rolls both back.
   */
  transaction<T>(who: AuditWho, work: (trx: Transaction<Database>, record: Recorder) => Promise<T>): Promise<T>;
  /** One record in its own transaction (sign-ins, sign-outs, denials: nothing else to commit with). */
  write(who: AuditWho, entry: AuditEntry): Promise<void>;
  /**
   * The refusal of a save that sent version `sent` of `target` while it is at another (./versions.ts
   * `staleError`), read with `db` (the save's transaction) as `reader` may read the audit log.
   */
  stale(db: Db, reader: { originBackoffice: boolean }, target: VersionedTarget, sent: number): Promise<DomainError>;
}

export function createAuditTrail({
  db,
  events,
  config,
}: {
  db: Kysely<Database>;
  events: EventBus;
  /** Who is back-office staff, for the stale answer's actors; none: nobody is. */
  config?: { backofficeTenant: string };
}): AuditTrail {
  // The back-office tenant's id never changes once it exists; asked again until it does.
  let backofficeId: number | undefined;
  async function backoffice(trx: Db): Promise<number | undefined> {
    if (config === undefined) return undefined;
    backofficeId ??= (
      await trx.selectFrom('tenants').select('id').where('name', '=', config.backofficeTenant).executeTakeFirst()
    )?.id;
    return backofficeId;
  }

  function announce(written: readonly AuditWritten[]): void {
    // The socket server sends it only to sockets whose user holds `audit` (contracts/socket.md §5).
    for (const { tenants, ...data } of written)
      for (const tenant of tenants) events.publish(tenant, 'AuditRecorded', data);
  }

  return {
    async transaction(who, work) {
      const written: AuditWritten[] = [];
      // The records the answer may offer to undo (./undo.ts `isUndoable`): a toast never offers "Desfazer"
      // for a change that has no inverse (a creation, a password, a sign-in).
      const undoable: number[] = [];
      const result = await db.transaction().execute(async (trx) => {
        // A bulk row's transaction takes its batch's share lock before anything else (the row's target
        // included): the batch's undo locks the batch first and its rows' targets after, so a row that
        // locked its target first and the batch last waited on the undo while the undo waited on it
        // (a deadlock: a row failed, or the undo answered 500, server/src/security/lists-attack-2.test.ts).
        const batchId = who.origin.batchId;
        if (batchId) await trx.selectFrom('audit_log').select('id').where('id', '=', batchId).forShare().execute();
        return work(trx, async (entry) => {
          const one = await writeAudit(trx, who, entry);
          written.push(one);
          if (isUndoable(entry.operation, entry.changes ?? [])) undoable.push(one.id);
          return one.id;
        });
      });
      announce(written);
      // The answer names them (REST `x-audit-record`, server/src/plugins/audit-record-header.ts), the
      // ones that can be undone only. A bulk run's rows name their batch: the batch is what the toast
      // offers to undo.
      noteRecords(who.origin.batchId ? [who.origin.batchId] : undoable);
      return result;
    },
    async write(who, entry) {
      announce([await writeAudit(db, who, entry)]);
    },
    async stale(trx, reader, target, sent) {
      return staleError(trx, reader, await backoffice(trx), target, sent);
    },
  };
}
