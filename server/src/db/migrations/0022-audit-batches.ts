import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Bulk actions (docs/lists.md, Bulk actions): a bulk run writes one record for the batch (`user.bulk`,
 * `tenant.feature-bulk`) and one per changed row; each row's record names the batch's in `batch_id`, so
 * the audit log shows a batch with its rows and the undo of a batch finds them. The batch's own record
 * has none. The partial index serves "the rows of this batch" without growing with the unbatched
 * records, which are nearly all of them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `alter table audit_log add column batch_id integer`,
    `create index audit_log_batch_idx on audit_log (batch_id, id) where batch_id is not null`,
  ]);
}
