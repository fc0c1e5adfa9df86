import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { CampaignStatusType, Database } from '../db/schema';
import { conflictCode, notFound } from '../base/domain-error';
import { REPORT_TIME_ZONE } from '../base/csv';

/**
 * A run (docs/webhooks.md): one generation of one status type for a tenant and a range of days. In the
 * caller's transaction: the tenant held live, its active endpoints receiving the type (none: 409
 * `webhook_no_endpoint`, nothing written), the run, and one queued delivery per message that reached the
 * type within the range and per endpoint, in one `insert … select`. Each delivery's body is fixed here
 * (docs/webhooks.md, Body), its `id` the delivery's idempotency key.
 */
export interface GeneratedRun {
  runId: number;
  deliveries: number;
}

export async function generateRun(
  trx: Transaction<Database>,
  q: { tenantId: number; type: CampaignStatusType; start: string; finish: string; createdBy: number | null },
): Promise<GeneratedRun> {
  const tenant = await trx
    .selectFrom('tenants')
    .select(['id', 'name', 'deleted_at'])
    .where('id', '=', q.tenantId)
    .forShare()
    .executeTakeFirst();
  if (!tenant || tenant.deleted_at !== null) throw notFound('Tenant not found', 'tenantName');
  // Held for the transaction: an endpoint deleted meanwhile waits, then cancels what this queued for it.
  const endpoints = await trx
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('tenant_id', '=', q.tenantId)
    .where('active', '=', true)
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`${q.type} = any(types)`)
    .forShare()
    .execute();
  // `created_at` below is the run's: now() is the transaction's start, the same in every statement.
  if (endpoints.length === 0)
    throw conflictCode(
      'webhook_no_endpoint',
      `The tenant has no active webhook endpoint receiving "${q.type}": register or resume one first`,
    );
  const run = await trx
    .insertInto('webhook_runs')
    .values({
      tenant_id: q.tenantId,
      type: q.type,
      start_at: q.start,
      finish_at: q.finish,
      total: 0,
      created_by: q.createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const iso = (column: RawBuilder<unknown>) =>
    sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  // The recipient masked as docs/webhooks.md shows it: +55 11 9****-1234 (country, area, first digit, last four).
  const { rows } = await sql<{ n: number }>`
    with messages as (
      select m.id, m.campaign, regexp_replace(m.recipient, '[^0-9]', '', 'g') as digits, s.at
      from campaign_message_statuses s
      join campaign_messages m on m.id = s.message_id
      where s.tenant_id = ${q.tenantId} and s.status = ${q.type}
        and s.at >= (${q.start}::date)::timestamp at time zone ${REPORT_TIME_ZONE}
        and s.at < (${q.finish}::date + 1)::timestamp at time zone ${REPORT_TIME_ZONE}
    ),
    queued as (
      select gen_random_uuid() as key, msg.*, e.id as endpoint_id
      from messages msg
      cross join (
        select id from webhook_endpoints
        where tenant_id = ${q.tenantId} and active and deleted_at is null and ${q.type} = any(types)
      ) e
    ),
    inserted as (
      insert into webhook_deliveries
        (run_id, tenant_id, endpoint_id, message_id, type, idempotency_key, body, state, next_attempt_at)
      select ${run.id}, ${q.tenantId}, endpoint_id, id, ${q.type}, key,
        json_build_object(
          'id', key,
          'type', ${`campaign.message.${q.type}`}::text,
          'created_at', ${iso(sql`now()`)},
          'tenant', ${tenant.name}::text,
          'data', json_build_object(
            'message_id', id,
            'campaign', campaign,
            'recipient', case when length(digits) >= 9
              then '+' || substr(digits, 1, 2) || ' ' || substr(digits, 3, 2) || ' ' || substr(digits, 5, 1)
                || repeat('*', length(digits) - 9) || '-' || right(digits, 4)
              else repeat('*', length(digits)) end,
            'status', ${q.type}::text,
            'status_at', ${iso(sql`at`)}
          )
        )::text,
        'pending', now()
      from queued
      order by at, id, endpoint_id
      returning 1
    )
    select count(*)::int as n from inserted
  `.execute(trx);
  const deliveries = rows[0]?.n ?? 0;
  await trx
    .updateTable('webhook_runs')
    .set({ total: deliveries, ...(deliveries === 0 ? { finished_at: sql<Date>`now()` } : {}) })
    .where('id', '=', run.id)
    .execute();
  return { runId: run.id, deliveries };
}
