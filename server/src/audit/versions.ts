import { sql, type Kysely, type Transaction } from 'kysely';
import type { AuditChange, AuditOperation } from '../../../src/domain/audit';
import type { Database } from '../db/schema';
import { invalid, stale, type DomainError, type StaleChange } from '../base/domain-error';

/**
 * Versions: no lost update (docs/lists.md, Versions; migration 0023).
 *
 * A versioned record (a user, role, tenant, department, instance, connection or webhook endpoint; a tenant's feature set
 * apart) is at version 1 when created and goes up by one with every audited change of it. The audit
 * trail (./trail.ts) keeps this true on every path: a record of an operation that {@link VERSIONING}
 * says raises the version carries the version the change produced (`audit_log.target_version`), which is
 * either the one the change's own statement answered (a save that sent a version: `update … set version =
 * version + 1 … where id = ? and version = ? returning version`, the check and the write in one
 * statement) or, when the change did not raise it itself, raised by the trail in the change's
 * transaction. So the target's records carry the versions 1, 2, 3… of the record, and a stale save's
 * answer is the records above the version it sent.
 */

/** What a record does to its target's version. */
export type Versioning =
  /** The change raises the version (the feature set's for `tenant.feature`). */
  | 'raise'
  /** The record is created at version 1. */
  | 'created'
  /** No versioned state changes: sessions, sign-ins, denials, a sent link, a lifted throttle, a sync's progress, records of removals for good. */
  | null;

/**
 * Every operation, classified; a new operation fails the build until it is (so no path forgets the
 * version). `user.disconnect` and `user.session-end` end sessions and presence, `user.throttle-lift`
 * clears sign-in attempts and `user.reset-link` sends a mail: none changes what the user's form shows.
 * `instance.sync` changes the sync state, which moves on without records as the sync progresses, so it is
 * not the instance form's either. Purges and a role's delete remove the row.
 */
export const VERSIONING: Readonly<Record<AuditOperation, Versioning>> = {
  'session.sign-in': null,
  'session.sign-out': null,
  'session.refresh-reuse': null,
  'access.denied': null,
  'user.create': 'created',
  'user.update': 'raise',
  'user.block': 'raise',
  'user.unblock': 'raise',
  'user.delete': 'raise',
  'user.purge': null,
  'user.password': 'raise',
  'user.reset-link': null,
  'user.disconnect': null,
  'user.instance-unlink': 'raise',
  'user.two-factor': 'raise',
  'user.throttle-lift': null,
  'user.session-end': null,
  'user.restore': 'raise',
  'user.bulk': null,
  'tenant.create': 'created',
  'tenant.update': 'raise',
  'tenant.delete': 'raise',
  'tenant.restore': 'raise',
  'tenant.purge': null,
  'tenant.plan': 'raise',
  'tenant.feature': 'raise',
  // A bulk run's own record (docs/lists.md, Bulk actions): each row's record raises its row's version.
  'tenant.feature-bulk': null,
  'role.create': 'created',
  'role.rename': 'raise',
  'role.permissions': 'raise',
  'role.delete': null,
  'department.create': 'created',
  'department.update': 'raise',
  'instance.create': 'created',
  'instance.update': 'raise',
  'instance.sync': null,
  'connection.create': 'created',
  'connection.update': 'raise',
  'webhook.endpoint-create': 'created',
  'webhook.endpoint-update': 'raise',
  'webhook.endpoint-rotate': 'raise',
  'webhook.endpoint-delete': 'raise',
  // A run's records: the run has no form, its deliveries move on without records.
  'webhook.generate': null,
  'webhook.redeliver': null,
  'audit.purge': null,
};

/**
 * The version a save sent, checked as the contracts state it (REST `SaveVersion`: an integer 1–2147483647;
 * GraphQL's `Int` is wider, so the service refuses the rest as bad input, BAD_USER_INPUT `version`, as REST
 * does with 400). Null or undefined: none sent.
 */
export function sentVersion(value: number | null | undefined): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Number.isInteger(value) || value < 1 || value > 2_147_483_647)
    throw invalid('version', 'version must be the version of the record as read (an integer from 1)');
  return value;
}

/** A versioned record: the audit log's target type and id; `features` for a tenant's feature set. */
export interface VersionedTarget {
  type: 'user' | 'role' | 'tenant' | 'department' | 'instance' | 'connection' | 'webhook_endpoint';
  id: number;
  features?: boolean;
}

type Db = Kysely<Database> | Transaction<Database>;

const TABLES = {
  user: 'users',
  role: 'roles',
  tenant: 'tenants',
  department: 'departments',
  instance: 'instances',
  connection: 'connections',
  webhook_endpoint: 'webhook_endpoints',
} as const;

/** The SQL of `version + 1`, for a change's own update (`set({ …, version: nextVersion })`). */
export const nextVersion = sql<number>`version + 1`;

function column(target: VersionedTarget) {
  return target.type === 'tenant' && target.features ? sql.ref('features_version') : sql.ref('version');
}

/** The target of an operation's record, when its type is versioned. */
export function versionedTarget(operation: AuditOperation, type: string, id: number | null): VersionedTarget | null {
  if (id === null || !(type in TABLES)) return null;
  return { type: type as VersionedTarget['type'], id, features: operation === 'tenant.feature' };
}

/**
 * Raises the target's version by one and answers the new one (`raise`), or reads it (`created`); undefined
 * when the row is gone. Runs in the change's transaction, after the change took the row's lock.
 */
export async function raiseOrRead(
  db: Db,
  target: VersionedTarget,
  how: 'raise' | 'created',
): Promise<number | undefined> {
  const table = sql.table(TABLES[target.type]);
  const col = column(target);
  const { rows } =
    how === 'raise'
      ? await sql<{
          v: number;
        }>`update ${table} set ${col} = ${col} + 1 where id = ${target.id} returning ${col} as v`.execute(db)
      : await sql<{ v: number }>`select ${col} as v from ${table} where id = ${target.id}`.execute(db);
  return rows[0]?.v;
}

/** The most changes a stale answer lists (contracts/openapi.yaml `Conflict.changes`, `maxItems`). */
export const STALE_CHANGES_MAX = 50;

/**
 * The 409 `stale` of a save that sent `sent` for `target`: its current version and its audited changes
 * above `sent`, oldest first, at most the {@link STALE_CHANGES_MAX} most recent. A reader who is not
 * back-office staff reads a staff actor as the provider's team, as in the audit log (./service.ts
 * `readAs`): `actor_staff` true, `actor_name` null. `backofficeTenantId` is undefined when there is no
 * back-office tenant (no actor is staff then).
 */
export async function staleError(
  db: Db,
  reader: { originBackoffice: boolean },
  backofficeTenantId: number | undefined,
  target: VersionedTarget,
  sent: number,
): Promise<DomainError> {
  const current = (await raiseOrRead(db, target, 'created')) ?? sent;
  let query = db
    .selectFrom('audit_log')
    .select(['id', 'at', 'actor_name', 'actor_tenant_id', 'operation', 'target_version', 'changes'])
    .where('target_type', '=', target.type)
    .where('target_id', '=', target.id)
    .where('target_version', '>', sent);
  // A tenant's feature set is versioned apart: its records are `tenant.feature`'s, the tenant's every other.
  if (target.type === 'tenant') query = query.where('operation', target.features ? '=' : '!=', 'tenant.feature');
  // Newest first through audit_log_target_idx (migration 0015), then turned oldest first.
  const rows = await query.orderBy('id', 'desc').limit(STALE_CHANGES_MAX).execute();
  const changes: StaleChange[] = rows.reverse().map((row) => {
    const staff = backofficeTenantId !== undefined && row.actor_tenant_id === backofficeTenantId;
    return {
      id: row.id,
      at: new Date(row.at).toISOString(),
      actor_name: staff && !reader.originBackoffice ? null : row.actor_name,
      actor_staff: staff,
      operation: row.operation,
      version: row.target_version ?? current,
      changes: (typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes) as AuditChange[],
    };
  });
  return stale(sent, current, changes);
}
