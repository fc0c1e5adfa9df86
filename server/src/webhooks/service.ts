import { optionalId, pageCursor, pageLimit } from '../base/page-params';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { components } from '../../../src/generated/openapi';
import type { CampaignStatusType, Database, WebhookDeliveryState } from '../db/schema';
import type { Actor } from '../access/caller';
import { guardService } from '../access/guard';
import { auditWho, changesOf, type AuditTrail } from '../audit/trail';
import { checkAll, conflictCode, invalid, notFound } from '../base/domain-error';
import { resolveTenant, type TenantRef } from '../tenants/scope';
import { isoOrNull, readRuns, type WebhookProgress } from './progress';
import { assertWebhookRole } from './who';

/**
 * A tenant's webhook history and redelivery (docs/webhooks.md; contracts/openapi.yaml tag `webhooks`):
 * runs with their counters, deliveries with their attempts, and "send again" for one delivery or every
 * failed one of a run. Who: back-office staff for any live tenant; a tenant's own users only for their
 * tenant and only as `administrador` (403); another tenant's run or delivery is not found (404).
 * Pages are newest first by id, `after` the previous page's `next` (as the audit log pages).
 */

type WebhookDeliveryDto = components['schemas']['WebhookDelivery'];
type WebhookAttemptDto = components['schemas']['WebhookAttempt'];

/** The role a tenant's own user needs (back-office staff need only the route permission). */
export { WEBHOOK_TENANT_ROLE } from './who';

const PAGE = { default: 50, max: 200 } as const;
const STATES: readonly WebhookDeliveryState[] = ['pending', 'sending', 'succeeded', 'failed', 'cancelled'];
const TYPES: readonly CampaignStatusType[] = ['sent', 'delivered', 'read', 'failed', 'replied'];

export interface PageQuery {
  tenantName?: string | null;
  after?: string | null;
  limit?: number | null;
}

export interface DeliveryQuery extends PageQuery {
  runId?: number | null;
  endpointId?: number | null;
  state?: string | null;
  type?: string | null;
}

function oneOf<T extends string>(
  field: string,
  value: string | null | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined || value === null) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw invalid(field, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

type Db = Kysely<Database> | Transaction<Database>;

/** The deliveries as the contract shows them, by the query's filters; `ids` for given ones. */
function deliveriesQuery(db: Db) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.run_id',
      'd.tenant_id',
      'd.endpoint_id',
      'e.url',
      'e.deleted_at as endpoint_deleted_at',
      'e.active as endpoint_active',
      'd.type',
      'd.message_id',
      'd.idempotency_key',
      'd.state',
      'd.attempts',
      'd.next_attempt_at',
      'd.last_status_code',
      'd.last_error',
      'd.created_at',
      'd.completed_at',
    ]);
}

type DeliveryRow = Awaited<ReturnType<ReturnType<typeof deliveriesQuery>['execute']>>[number];

function deliveryDto(r: DeliveryRow): WebhookDeliveryDto {
  return {
    id: r.id,
    run_id: r.run_id,
    endpoint: { id: r.endpoint_id, url: r.url, deleted: r.endpoint_deleted_at !== null },
    type: r.type,
    message_id: r.message_id,
    idempotency_key: r.idempotency_key,
    state: r.state,
    attempts: r.attempts,
    next_attempt_at: isoOrNull(r.next_attempt_at),
    last_status_code: r.last_status_code,
    last_error: r.last_error,
    created_at: new Date(r.created_at).toISOString(),
    completed_at: isoOrNull(r.completed_at),
  };
}

export function createWebhooksService({
  db,
  audit,
  progress,
}: {
  db: Kysely<Database>;
  audit: AuditTrail;
  /** Where run progress is told (./progress.ts); none: not told. */
  progress?: WebhookProgress;
}) {
  /** The tenant a list is about: the caller's own, or (staff) the named live one. */
  async function tenantOf(actor: Actor, tenantName: string | null | undefined): Promise<TenantRef> {
    assertWebhookRole(actor);
    const tenant = await resolveTenant(db, actor, tenantName);
    // The caller's own tenant is not looked up by resolveTenant: a deleted one's history is not found either.
    await visibleTenant(actor, tenant.id);
    return tenant;
  }

  /** A record of a live tenant the caller may see, or 404. */
  async function visibleTenant(actor: Actor, tenantId: number | undefined): Promise<number> {
    if (tenantId === undefined) throw notFound();
    if (!actor.originBackoffice && actor.tenantId !== tenantId) throw notFound();
    const live = await db
      .selectFrom('tenants')
      .select('id')
      .where('id', '=', tenantId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!live) throw notFound();
    return tenantId;
  }

  return guardService('webhooks', {
    /** A tenant's runs, newest first. */
    async runs(actor: Actor, q: PageQuery) {
      const v = checkAll({ after: () => pageCursor(q.after), limit: () => pageLimit(q.limit, PAGE) });
      const tenant = await tenantOf(actor, q.tenantName);
      let query = db
        .selectFrom('webhook_runs')
        .select('id')
        .where('tenant_id', '=', tenant.id)
        .orderBy('id', 'desc')
        .limit(v.limit + 1);
      if (v.after !== null) query = query.where('id', '<', v.after);
      const ids = (await query.execute()).map((r) => r.id);
      const page = ids.slice(0, v.limit);
      const runs = await readRuns(db, page);
      return {
        data: page.flatMap((id) => {
          const found = runs.get(id);
          return found ? [found.run] : [];
        }),
        next: ids.length > v.limit ? String(page[page.length - 1]) : null,
      };
    },

    /** One run and its counters. */
    async run(actor: Actor, id: number) {
      assertWebhookRole(actor);
      const found = (await readRuns(db, [id])).get(id);
      await visibleTenant(actor, found?.tenantId);
      return found!.run;
    },

    /** A tenant's deliveries, newest first, filtered by run, endpoint, state and type. */
    async deliveries(actor: Actor, q: DeliveryQuery) {
      const v = checkAll({
        after: () => pageCursor(q.after),
        limit: () => pageLimit(q.limit, PAGE),
        runId: () => optionalId('runId', q.runId),
        endpointId: () => optionalId('endpointId', q.endpointId),
        state: () => oneOf('state', q.state, STATES),
        type: () => oneOf('type', q.type, TYPES),
      });
      const tenant = await tenantOf(actor, q.tenantName);
      // The tenant first: a run or endpoint of another tenant matches nothing.
      let query = deliveriesQuery(db)
        .where('d.tenant_id', '=', tenant.id)
        .orderBy('d.id', 'desc')
        .limit(v.limit + 1);
      if (v.after !== null) query = query.where('d.id', '<', v.after);
      if (v.runId !== undefined) query = query.where('d.run_id', '=', v.runId);
      if (v.endpointId !== undefined) query = query.where('d.endpoint_id', '=', v.endpointId);
      if (v.state !== undefined) query = query.where('d.state', '=', v.state);
      if (v.type !== undefined) query = query.where('d.type', '=', v.type);
      const rows = await query.execute();
      const page = rows.slice(0, v.limit);
      return {
        data: page.map(deliveryDto),
        next: rows.length > v.limit ? String(page[page.length - 1]!.id) : null,
      };
    },

    /** One delivery, its body and every attempt, oldest first. */
    async delivery(actor: Actor, id: number) {
      assertWebhookRole(actor);
      const row = await deliveriesQuery(db).select('d.body').where('d.id', '=', id).executeTakeFirst();
      await visibleTenant(actor, row?.tenant_id);
      const attempts = await db
        .selectFrom('webhook_attempts')
        .select(['number', 'started_at', 'duration_ms', 'status_code', 'error', 'response_excerpt', 'retry_at'])
        .where('delivery_id', '=', id)
        .orderBy('number')
        .execute();
      return {
        delivery: deliveryDto(row!),
        body: row!.body,
        attempts: attempts.map((a): WebhookAttemptDto => ({
          number: a.number,
          started_at: new Date(a.started_at).toISOString(),
          duration_ms: a.duration_ms,
          status_code: a.status_code,
          error: a.error,
          response_excerpt: a.response_excerpt,
          retry_at: isoOrNull(a.retry_at),
        })),
      };
    },

    /** Queues one delivery again: a new series of attempts, the same idempotency key and body. */
    async redeliver(actor: Actor, id: number) {
      assertWebhookRole(actor);
      const result = await audit.transaction(auditWho(actor), async (trx, record) => {
        const row = await deliveriesQuery(trx).where('d.id', '=', id).forUpdate('d').executeTakeFirst();
        if (!row || (!actor.originBackoffice && actor.tenantId !== row.tenant_id)) throw notFound();
        const tenant = await trx
          .selectFrom('tenants')
          .select('deleted_at')
          .where('id', '=', row.tenant_id)
          .forShare()
          .executeTakeFirstOrThrow();
        if (tenant.deleted_at !== null) throw notFound();
        if (row.state === 'pending' || row.state === 'sending')
          throw conflictCode('webhook_delivery_in_progress', 'This delivery is already queued or being sent');
        if (row.endpoint_deleted_at !== null)
          throw conflictCode('webhook_endpoint_deleted', "This delivery's endpoint was deleted");
        if (!row.endpoint_active)
          throw conflictCode('webhook_endpoint_paused', "This delivery's endpoint is paused: resume it first");
        await trx
          .updateTable('webhook_deliveries')
          .set({ state: 'pending', next_attempt_at: sql<Date>`now()`, completed_at: null })
          .where('id', '=', id)
          .execute();
        await trx.updateTable('webhook_runs').set({ finished_at: null }).where('id', '=', row.run_id).execute();
        await record({
          operation: 'webhook.redeliver',
          target: { id: row.run_id, name: null },
          tenantId: row.tenant_id,
          changes: changesOf(null, { delivery_id: id, requeued: 1 }),
        });
        return deliveryDto((await deliveriesQuery(trx).where('d.id', '=', id).executeTakeFirst())!);
      });
      progress?.changed(result.run_id);
      return result;
    },

    /** Queues every failed delivery of a run again, but those to a paused or deleted endpoint. */
    async redeliverFailed(actor: Actor, runId: number) {
      assertWebhookRole(actor);
      const result = await audit.transaction(auditWho(actor), async (trx, record) => {
        const run = await trx
          .selectFrom('webhook_runs as r')
          .innerJoin('tenants as t', 't.id', 'r.tenant_id')
          .select(['r.id', 'r.tenant_id', 't.deleted_at'])
          .where('r.id', '=', runId)
          .forUpdate('r')
          .executeTakeFirst();
        if (!run || run.deleted_at !== null || (!actor.originBackoffice && actor.tenantId !== run.tenant_id))
          throw notFound();
        const requeued = await trx
          .updateTable('webhook_deliveries')
          .set({ state: 'pending', next_attempt_at: sql<Date>`now()`, completed_at: null })
          .where('run_id', '=', runId)
          .where('state', '=', 'failed')
          .where('endpoint_id', 'in', (eb) =>
            eb
              .selectFrom('webhook_endpoints')
              .select('id')
              .where('tenant_id', '=', run.tenant_id)
              .where('active', '=', true)
              .where('deleted_at', 'is', null),
          )
          .executeTakeFirst();
        const { skipped } = await trx
          .selectFrom('webhook_deliveries')
          .select(sql<number>`count(*)::int`.as('skipped'))
          .where('run_id', '=', runId)
          .where('state', '=', 'failed')
          .executeTakeFirstOrThrow();
        const n = Number(requeued.numUpdatedRows);
        if (n > 0) await trx.updateTable('webhook_runs').set({ finished_at: null }).where('id', '=', runId).execute();
        await record({
          operation: 'webhook.redeliver',
          target: { id: runId, name: null },
          tenantId: run.tenant_id,
          changes: changesOf(null, { requeued: n, skipped }),
        });
        return { requeued: n, skipped };
      });
      if (result.requeued > 0) progress?.changed(runId);
      return result;
    },
  });
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
