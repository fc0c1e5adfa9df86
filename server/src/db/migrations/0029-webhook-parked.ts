import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * A paused endpoint's deliveries out of the queue's way (docs/webhooks.md, Retries): `parked` is set on
 * an endpoint's waiting deliveries when it is paused and cleared when it is resumed, and the due index
 * holds only unparked ones. Before, the claim stepped over every waiting delivery of every paused
 * endpoint on each pass (they stayed at the head of the index): a big run to a receiver paused for
 * maintenance slowed every claim of every tenant.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `alter table webhook_deliveries add column parked boolean not null default false`,
    `update webhook_deliveries d set parked = true
      from webhook_endpoints e where e.id = d.endpoint_id and d.state = 'pending' and not e.active`,
    `drop index webhook_deliveries_due_idx`,
    `create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where state = 'pending' and not parked`,
  ]);
}
