import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Versions: no lost update (docs/lists.md, Versions).
 *
 * - `version` on every record a form edits (users, roles, tenants, departments, instances, connections):
 *   1 for every row there is and every row created, raised by one with each audited change of the row in
 *   the statement that writes it (`update … set version = version + 1 … returning version`). A save that
 *   sends the version it read adds `and version = ?` to that statement, so the check and the write are one
 *   and of two racing saves with one version exactly one finds its row.
 * - `tenants.features_version`: the tenant's feature set has its own, as the features editor and the tenant
 *   form are different forms and a change of one must not refuse the other.
 * - `audit_log.target_version`: the version the recorded change produced (the feature set's for
 *   `tenant.feature`), null for records that change no versioned record and for those written before this
 *   migration. A stale save's answer lists the target's records above the version it sent, read through
 *   `audit_log_target_idx` (migration 0015), newest first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `alter table users add column version integer not null default 1`,
    `alter table roles add column version integer not null default 1`,
    `alter table tenants add column version integer not null default 1`,
    `alter table tenants add column features_version integer not null default 1`,
    `alter table departments add column version integer not null default 1`,
    `alter table instances add column version integer not null default 1`,
    `alter table connections add column version integer not null default 1`,
    `alter table audit_log add column target_version integer`,
  ]);
}
