import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { AuditChange } from '../../../src/domain/audit';
import type { AuditLogTable, Database } from '../db/schema';
import { likeLiteral } from '../base/like';

/**
 * The audit log's reads and the retention purge's deletes (table `audit_log`, migration 0015), SQL
 * only; the rules are ./service.ts's and ./retention.ts's.
 */

/** What a read keeps; every field optional (absent: no condition). */
export interface AuditFilter {
  /** At or after this instant. */
  from?: Date;
  /** Before this instant. */
  to?: Date;
  actorId?: number;
  /** The actor's tenant (a reader who is not staff names only actors of its own tenant). */
  actorTenantId?: number;
  /** The records' `tenant_id` (the caller's scope has already been applied to it). */
  tenantId?: number;
  operations?: readonly string[];
  targetType?: string;
  targetId?: number;
}

/** A stored record as read, its changes parsed. */
export type AuditRow = Omit<Selectable<AuditLogTable>, 'changes'> & { changes: AuditChange[] };

/** A record as one reader reads it (./service.ts readAs): whether its actor is staff, staff identity masked for non-staff readers. */
export type ReadAuditRow = AuditRow & { actor_staff: boolean };

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Up to `limit` records matching `filter` with an id below `before` (from the newest when null),
 * newest first by id. The indexes of migration 0015 serve each filter in this order.
 */
export async function auditPage(
  db: Db,
  filter: AuditFilter,
  before: number | null,
  limit: number,
): Promise<AuditRow[]> {
  let q = db.selectFrom('audit_log').selectAll();
  if (filter.from) q = q.where('at', '>=', filter.from);
  if (filter.to) q = q.where('at', '<', filter.to);
  if (filter.actorId !== undefined) q = q.where('actor_user_id', '=', filter.actorId);
  if (filter.actorTenantId !== undefined) q = q.where('actor_tenant_id', '=', filter.actorTenantId);
  if (filter.tenantId !== undefined) q = q.where('tenant_id', '=', filter.tenantId);
  if (filter.operations && filter.operations.length > 0) q = q.where('operation', 'in', filter.operations);
  if (filter.targetType !== undefined) q = q.where('target_type', '=', filter.targetType);
  if (filter.targetId !== undefined) q = q.where('target_id', '=', filter.targetId);
  if (before !== null) q = q.where('id', '<', before);
  const rows = await q.orderBy('id', 'desc').limit(limit).execute();
  return rows.map((row) => ({
    ...row,
    at: new Date(row.at),
    changes: (typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes) as AuditChange[],
  }));
}

/** The id of the tenant named `name` (the back-office tenant, BACKOFFICE_TENANT); undefined when none. */
export async function tenantIdByName(db: Db, name: string): Promise<number | undefined> {
  const row = await db.selectFrom('tenants').select('id').where('name', '=', name).executeTakeFirst();
  return row?.id;
}

/** How many records are older than `cutoff`. */
export async function countOlderThan(db: Db, cutoff: Date): Promise<number> {
  const row = await db
    .selectFrom('audit_log')
    .select(sql<string>`count(*)`.as('n'))
    .where('at', '<', cutoff)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Deletes up to `limit` of the oldest records older than `cutoff`; the caller's transaction must have
 * switched the immutability trigger off for itself ({@link allowPurge}). Returns how many went.
 */
export async function deleteOlderThan(db: Db, cutoff: Date, limit: number): Promise<number> {
  const batch = db.selectFrom('audit_log').select('id').where('at', '<', cutoff).orderBy('id').limit(limit);
  // `= any(array(…))` deletes by the primary key; `in (…)` made the planner hash-join a scan of the whole table.
  const result = await db
    .deleteFrom('audit_log')
    .where(sql<boolean>`id = any(array(${batch}))`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Lets this transaction (and only it) delete records: the trigger of migration 0015 checks the setting. */
export async function allowPurge(trx: Transaction<Database>): Promise<void> {
  await sql`select set_config('panel.audit_purge', 'on', true)`.execute(trx);
}

/**
 * Takes the purge's transaction-level advisory lock (keyed by the schema, as the event relay's channels
 * are) without waiting: false when another process's purge holds it. Released at commit or rollback.
 */
export async function tryPurgeLock(trx: Transaction<Database>): Promise<boolean> {
  const { rows } = await sql<{ ok: boolean }>`
    select pg_try_advisory_xact_lock(hashtext('panel_audit_purge:' || current_schema())) as ok`.execute(trx);
  return rows[0]?.ok === true;
}

/** Whether a purge was recorded at or after `since` (another process purged already). */
export async function purgedSince(db: Db, since: Date): Promise<boolean> {
  const row = await db
    .selectFrom('audit_log')
    .select('id')
    .where('target_type', '=', 'system')
    .where('operation', '=', 'audit.purge')
    .where('at', '>=', since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** One record by id, its changes parsed; undefined when there is none. */
export async function auditRecord(db: Db, id: number): Promise<AuditRow | undefined> {
  const row = await db.selectFrom('audit_log').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined
    ? undefined
    : {
        ...row,
        at: new Date(row.at),
        changes: (typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes) as AuditChange[],
      };
}

/**
 * Locks record `id` for the rest of the transaction (a row lock fires no trigger, so the immutability
 * trigger of migration 0015 lets it be): concurrent undos of one record run one after the other.
 */
export async function lockAuditRecord(trx: Transaction<Database>, id: number): Promise<void> {
  await trx.selectFrom('audit_log').select('id').where('id', '=', id).forUpdate().execute();
}

/** The record that undid record `id` (migration 0024 `undo_of`), or null. */
export async function undoneBy(db: Db, id: number): Promise<number | null> {
  const row = await db.selectFrom('audit_log').select('id').where('undo_of', '=', id).executeTakeFirst();
  return row?.id ?? null;
}

/** For each of `ids`, the record that undid it, if any. */
export async function undoneByOf(db: Db, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('audit_log')
    .select(['id', 'undo_of'])
    .where('undo_of', 'in', [...ids])
    .execute();
  return new Map(rows.flatMap((r) => (r.undo_of === null ? [] : [[r.undo_of, r.id] as const])));
}

/** The rows' records of batch `id` (a bulk run, migration 0022), oldest first. */
export async function batchRecords(db: Db, id: number): Promise<AuditRow[]> {
  const rows = await db.selectFrom('audit_log').selectAll().where('batch_id', '=', id).orderBy('id').execute();
  return rows.map((row) => ({
    ...row,
    at: new Date(row.at),
    changes: (typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes) as AuditChange[],
  }));
}

/** One actor or target as its newest matching record names it (./service.ts `names`). */
export interface AuditNameRow {
  id: number;
  name: string | null;
  email: string | null;
  tenant_name: string | null;
}

/** What a names read keeps (the caller's scope already applied by ./service.ts). */
export interface AuditNameFilter {
  of: 'actor' | 'target';
  /** With `of: 'target'`. */
  targetType?: string;
  /** The records' `tenant_id`. */
  tenantId?: number;
  /** The actor's tenant (a reader who is not staff: its own). */
  actorTenantId?: number;
  /** Actors of this tenant are left out (the back-office tenant, for a reader who is not staff). */
  notActorTenantId?: number;
  /** Contained in the name or e-mail, no case (a target's id when all digits); a LIKE literal is made here. */
  text?: string;
  id?: number;
}

/**
 * The distinct actors or targets of the records matching `filter`, each named by its newest matching
 * record, by name then id, at most `limit`. Reads `audit_log` only: a deleted user keeps the names its
 * records hold, and nothing more.
 */
export async function auditNames(db: Db, filter: AuditNameFilter, limit: number): Promise<AuditNameRow[]> {
  const actor = filter.of === 'actor';
  let q = db.selectFrom('audit_log');
  if (filter.tenantId !== undefined) q = q.where('tenant_id', '=', filter.tenantId);
  if (actor) {
    q = q.where('actor_user_id', 'is not', null);
    if (filter.actorTenantId !== undefined) q = q.where('actor_tenant_id', '=', filter.actorTenantId);
    if (filter.notActorTenantId !== undefined)
      q = q.where((eb) =>
        eb.or([eb('actor_tenant_id', 'is', null), eb('actor_tenant_id', '<>', filter.notActorTenantId ?? 0)]),
      );
    if (filter.id !== undefined) q = q.where('actor_user_id', '=', filter.id);
  } else {
    q = q.where('target_type', '=', filter.targetType ?? '').where('target_id', 'is not', null);
    if (filter.id !== undefined) q = q.where('target_id', '=', filter.id);
  }
  const text = filter.text?.trim();
  if (text) {
    const pattern = `%${likeLiteral(text)}%`;
    q = q.where((eb) =>
      actor
        ? eb.or([eb('actor_name', 'ilike', pattern), eb('actor_email', 'ilike', pattern)])
        : /^\d{1,9}$/.test(text)
          ? eb.or([eb('target_name', 'ilike', pattern), eb('target_id', '=', Number(text))])
          : eb('target_name', 'ilike', pattern),
    );
  }
  const newest = actor
    ? q
        .select([
          'actor_user_id as id',
          'actor_name as name',
          'actor_email as email',
          'actor_tenant_name as tenant_name',
        ])
        .distinctOn('actor_user_id')
        .orderBy('actor_user_id')
        .orderBy('id', 'desc')
    : q
        .select(['target_id as id', 'target_name as name', sql<string | null>`null`.as('email'), 'tenant_name'])
        .distinctOn('target_id')
        .orderBy('target_id')
        .orderBy('id', 'desc');
  const rows = await db
    .selectFrom(newest.as('n'))
    .selectAll()
    .orderBy(sql`lower(n.name)`)
    .orderBy('n.id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    email: row.email,
    tenant_name: row.tenant_name,
  }));
}
