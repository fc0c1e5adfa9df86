import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Undo on the server (docs/lists.md, Undo on the server; server/src/undo/service.ts):
 * `audit_log.undo_of` names the record a reversing record undoes. The partial unique index lets one
 * record be undone once: of concurrent undos of one record, one commits and the others fail the index
 * (409 `already_undone`), whatever the locks decided before. Inserting a column keeps the immutability
 * trigger of migration 0015 (it refuses UPDATE and DELETE, not ALTER).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `alter table audit_log add column undo_of integer`,
    `create unique index audit_log_undo_of_key on audit_log (undo_of) where undo_of is not null`,
  ]);
}
