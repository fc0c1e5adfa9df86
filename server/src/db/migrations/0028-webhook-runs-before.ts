import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Runs generated before the webhook queue (migration 0027) counted orders and sent nothing: they have a
 * `total` and no delivery, so nothing would ever set their `finished_at` and they would look under way
 * forever. They are finished when they were made (docs/webhooks.md, Runs).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `update webhook_runs r set finished_at = r.created_at
      where r.finished_at is null and not exists (select 1 from webhook_deliveries d where d.run_id = r.id)`,
  ]);
}
