import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import { inBatches } from '../db/batches';
import type { Database } from '../db/schema';
import type { EventBus } from '../base/events';
import { instanceDto, instanceQuery, type InstanceDto } from './instance-dto';

/** Messages (attendance rows) read per step of a sync. */
export const SYNC_BATCH = 500;
/** Progress reaches the sockets at most this often per instance (contracts/socket.md, InstanceUpdated). */
export const PROGRESS_INTERVAL_MS = 500;

export interface SyncTarget {
  instanceId: number;
  tenantId: number;
  /** How far back to sync, in days; null syncs every message. */
  daysAgo: number | null;
}

export interface SyncPlan extends SyncTarget {
  since: Date | null;
  /** Highest attendance id at the start: rows that arrive during the sync belong to the next one. */
  maxId: number;
  total: number;
}

/**
 * The reference server has no messaging provider, so the "messages" of an instance are the tenant's
 * chat records it holds: its attendances within the window. A sync reads them in keyset batches and
 * records its progress on the instance row, so the numbers a client sees are real counts.
 */
async function plan(db: Kysely<Database> | Transaction<Database>, target: SyncTarget): Promise<SyncPlan> {
  const since = target.daysAgo === null ? null : new Date(Date.now() - target.daysAgo * 86_400_000);
  let query = db
    .selectFrom('attendances')
    .select([sql<number>`count(*)::int`.as('total'), sql<number>`coalesce(max(id), 0)`.as('max_id')])
    .where('tenant_id', '=', target.tenantId);
  if (since) query = query.where('started_at', '>=', since);
  const { total, max_id } = await query.executeTakeFirstOrThrow();
  return { ...target, since, maxId: Number(max_id), total };
}

async function publish(db: Kysely<Database>, events: EventBus, instanceId: number): Promise<InstanceDto | undefined> {
  const row = await instanceQuery(db).where('i.id', '=', instanceId).executeTakeFirst();
  if (!row) return undefined;
  const dto = instanceDto(row);
  events.publish({ id: row.tenant_id, name: row.tenant_name }, 'InstanceUpdated', dto);
  return dto;
}

async function run(db: Kysely<Database>, events: EventBus, p: SyncPlan): Promise<void> {
  let synced = 0;
  let lastEvent = Date.now();
  const pages = inBatches((afterId, limit) => {
    let query = db
      .selectFrom('attendances')
      .select('id')
      .where('tenant_id', '=', p.tenantId)
      .where('id', '>', afterId)
      .where('id', '<=', p.maxId);
    if (p.since) query = query.where('started_at', '>=', p.since);
    return query.orderBy('id').limit(limit).execute();
  }, SYNC_BATCH);
  for await (const rows of pages) {
    synced = Math.min(p.total, synced + rows.length);
    const progress = p.total === 0 ? 100 : Math.min(99, Math.floor((synced * 100) / p.total));
    await db
      .updateTable('instances')
      .set({ synced_messages: synced, sync_progress: progress })
      .where('id', '=', p.instanceId)
      .execute();
    if (Date.now() - lastEvent >= PROGRESS_INTERVAL_MS) {
      lastEvent = Date.now();
      await publish(db, events, p.instanceId);
    }
  }
  await db
    .updateTable('instances')
    .set({ status: 'done', sync_progress: 100, synced_messages: synced })
    .where('id', '=', p.instanceId)
    .execute();
  await db
    .insertInto('instance_logs')
    .values({
      tenant_id: p.tenantId,
      instance_id: p.instanceId,
      event: 'sync_finished',
      detail: `${synced} messages synced`,
    })
    .execute();
  await publish(db, events, p.instanceId);
}

async function fail(db: Kysely<Database>, events: EventBus, p: SyncTarget, error: unknown): Promise<void> {
  const detail = `sync failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500);
  await db.updateTable('instances').set({ status: 'failed' }).where('id', '=', p.instanceId).execute();
  await db
    .insertInto('instance_logs')
    .values({ tenant_id: p.tenantId, instance_id: p.instanceId, event: 'error', detail })
    .execute();
  await publish(db, events, p.instanceId);
}

/**
 * Claims the instance for a message sync within `trx` (the caller's transaction, which also records
 * who started it): `status` → `syncing` unless a sync already runs (then `undefined`), counters reset
 * to the window's total, `sync_started` logged. Nothing is published until {@link launchSync}, called
 * after the commit.
 */
export async function claimSync(trx: Transaction<Database>, target: SyncTarget): Promise<SyncPlan | undefined> {
  const p = await plan(trx, target);
  const claimed = await trx
    .updateTable('instances')
    .set({ status: 'syncing', sync_progress: 0, synced_messages: 0, total_messages: p.total })
    .where('id', '=', p.instanceId)
    .where('status', '!=', 'syncing')
    .returning('id')
    .executeTakeFirst();
  if (!claimed) return undefined;
  const window = p.daysAgo === null ? 'all messages' : `last ${p.daysAgo} days`;
  await trx
    .insertInto('instance_logs')
    .values({
      tenant_id: p.tenantId,
      instance_id: p.instanceId,
      event: 'sync_started',
      detail: `${window}: ${p.total} messages`,
    })
    .execute();
  return p;
}

/**
 * Runs a committed claim ({@link claimSync}): publishes `InstanceUpdated` and returns the instance at
 * once; the batches run in the background and end in `done` (or `failed`), each state change written
 * to the row and published.
 */
export async function launchSync(
  deps: { db: Kysely<Database>; events: EventBus; log: FastifyBaseLogger },
  p: SyncPlan,
): Promise<InstanceDto | undefined> {
  const { db, events, log } = deps;
  const dto = await publish(db, events, p.instanceId);
  void run(db, events, p).catch(async (error: unknown) => {
    log.error({ err: error, instanceId: p.instanceId }, 'instance sync failed');
    await fail(db, events, p, error).catch((nested: unknown) =>
      log.error({ err: nested }, 'could not record the failed sync'),
    );
  });
  return dto;
}
