import { sql, type Kysely } from 'kysely';
import type { CampaignStatusType, Database } from '../db/schema';
import { newWebhookSecret, sealWebhookSecret } from '../webhooks/secrets';

/**
 * Webhook rows for tests (docs/webhooks.md): endpoints straight in `webhook_endpoints` (their secret
 * sealed as the server seals it: the app must be built, for the two-factor cipher) and campaign
 * messages with one status each.
 */
export async function insertEndpoint(
  db: Kysely<Database>,
  options: {
    tenantId: number;
    url: string;
    types?: CampaignStatusType[];
    active?: boolean;
    deleted?: boolean;
    /** A previous secret still signing until `previousExpiresAt` (a rotation's grace period). */
    previous?: { secret: string; expiresAt: Date };
  },
): Promise<{ id: number; secret: string }> {
  const secret = newWebhookSecret();
  const { id } = await db
    .insertInto('webhook_endpoints')
    .values({
      tenant_id: options.tenantId,
      url: options.url,
      url_key: `${options.url}#${Math.random().toString(36).slice(2)}`,
      types: sql<CampaignStatusType[]>`${sql.lit(`{${(options.types ?? ['delivered']).join(',')}}`)}::text[]`,
      active: options.active ?? true,
      secret: 'pending',
      deleted_at: options.deleted ? new Date() : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('webhook_endpoints')
    .set({
      secret: sealWebhookSecret(db, id, secret),
      ...(options.previous
        ? {
            previous_secret: sealWebhookSecret(db, id, options.previous.secret),
            previous_secret_expires_at: options.previous.expiresAt,
          }
        : {}),
    })
    .where('id', '=', id)
    .execute();
  return { id, secret };
}

/** `count` campaign messages of the tenant that reached `status` at `at` (default: now); their ids. */
export async function insertMessages(
  db: Kysely<Database>,
  options: { tenantId: number; count: number; status?: CampaignStatusType; at?: Date; campaign?: string },
): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    with m as (
      insert into campaign_messages (tenant_id, campaign, recipient)
      select ${options.tenantId}, ${options.campaign ?? 'Campanha de teste'}, '+55119' || lpad((87650000 + g)::text, 8, '0')
      from generate_series(1, ${options.count}) g
      returning id
    )
    insert into campaign_message_statuses (message_id, tenant_id, status, at)
    select id, ${options.tenantId}, ${options.status ?? 'delivered'}, ${options.at ?? new Date()}::timestamptz from m
    returning message_id as id`.execute(db);
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** Polls `check` until it answers true (a condition, not a clock), failing after `timeoutMs`. */
export async function until(check: () => Promise<boolean> | boolean, timeoutMs = 20_000, what = 'condition') {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
