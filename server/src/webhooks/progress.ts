import { sql, type Kysely } from 'kysely';
import type { components } from '../../../src/generated/openapi';
import type { Database } from '../db/schema';
import type { EventBus } from '../base/events';

/**
 * A run as the contracts show it (REST `WebhookRun`, the socket's `WebhookRunProgress`): its deliveries
 * counted by state, and its progress told on the socket (contracts/socket.md §3): after its counters
 * change, at most once per {@link PROGRESS_INTERVAL_MS} per run and process, and always once when it finishes,
 * to the run's tenant's connections and back-office staff's (the socket lets through only roles holding
 * `tenants`, server/src/plugins/socket.ts).
 */
export type WebhookRunDto = components['schemas']['WebhookRun'];

export const PROGRESS_INTERVAL_MS = 500;

/** An instant of a row as the contract's `date-time`, null kept. */
export const isoOrNull = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The runs by id, with their counters, tenants and authors (missing ids are left out). */
export async function readRuns(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<Map<number, { run: WebhookRunDto; tenantId: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('webhook_runs as r')
    .innerJoin('tenants as t', 't.id', 'r.tenant_id')
    .leftJoin('users as u', 'u.id', 'r.created_by')
    .select([
      'r.id',
      'r.tenant_id',
      't.name as tenantName',
      'r.type',
      'r.start_at',
      'r.finish_at',
      'r.total',
      'r.created_at',
      'r.finished_at',
      'u.id as userId',
      'u.name as userName',
      (eb) =>
        eb
          .selectFrom('webhook_deliveries as d')
          .select(
            sql<string>`json_build_array(
              count(*) filter (where d.state in ('pending', 'sending')),
              count(*) filter (where d.state = 'succeeded'),
              count(*) filter (where d.state = 'failed'),
              count(*) filter (where d.state = 'cancelled'))::text`.as('c'),
          )
          .whereRef('d.run_id', '=', 'r.id')
          .as('counters'),
    ])
    .where('r.id', 'in', ids)
    .execute();
  const runs = new Map<number, { run: WebhookRunDto; tenantId: number }>();
  for (const r of rows) {
    const [pending = 0, succeeded = 0, failed = 0, cancelled = 0] = JSON.parse(r.counters ?? '[]') as number[];
    const run: WebhookRunDto = {
      id: r.id,
      tenantName: r.tenantName,
      type: r.type,
      startAt: String(r.start_at),
      finishAt: String(r.finish_at),
      total: r.total,
      pending,
      succeeded,
      failed,
      cancelled,
      created_at: new Date(r.created_at).toISOString(),
      created_by: r.userId === null || r.userName === null ? null : { id: r.userId, name: r.userName },
      finished_at: isoOrNull(r.finished_at),
    };
    runs.set(r.id, { run, tenantId: r.tenant_id });
  }
  return runs;
}

export interface WebhookProgress {
  /** Run `runId`'s counters changed: its event goes out now or within the interval. */
  changed(runId: number): void;
  /** Sends what is waiting now (closing). */
  flush(): Promise<void>;
}

/** The progress publisher of one process (one per app: server/src/app.ts). */
export function createWebhookProgress(deps: {
  db: Kysely<Database>;
  events: EventBus;
  backofficeTenant: string;
  intervalMs?: number;
  log?: { warn(object: unknown, message: string): void };
}): WebhookProgress {
  const intervalMs = deps.intervalMs ?? PROGRESS_INTERVAL_MS;
  const last = new Map<number, number>();
  const timers = new Map<number, NodeJS.Timeout>();
  const sending = new Set<Promise<void>>();
  let backofficeId: number | undefined;

  async function send(runId: number): Promise<void> {
    last.set(runId, Date.now());
    const found = (await readRuns(deps.db, [runId])).get(runId);
    if (!found) return;
    const { run, tenantId } = found;
    backofficeId ??= (
      await deps.db.selectFrom('tenants').select('id').where('name', '=', deps.backofficeTenant).executeTakeFirst()
    )?.id;
    deps.events.publish({ id: tenantId, name: run.tenantName }, 'WebhookRunProgress', run);
    if (backofficeId !== undefined && backofficeId !== tenantId)
      deps.events.publish({ id: backofficeId, name: deps.backofficeTenant }, 'WebhookRunProgress', run);
    if (run.finished_at !== null) last.delete(runId);
  }

  function start(runId: number): void {
    const timer = timers.get(runId);
    if (timer) clearTimeout(timer);
    timers.delete(runId);
    const p: Promise<void> = send(runId)
      .catch((error: unknown) => deps.log?.warn({ err: error, runId }, 'webhook run progress not sent'))
      .finally(() => sending.delete(p));
    sending.add(p);
  }

  return {
    changed(runId) {
      if (timers.has(runId)) return;
      const since = Date.now() - (last.get(runId) ?? 0);
      if (since >= intervalMs) return start(runId);
      const timer = setTimeout(() => start(runId), intervalMs - since);
      timer.unref();
      timers.set(runId, timer);
    },
    async flush() {
      for (const runId of [...timers.keys()]) start(runId);
      await Promise.all([...sending]);
    },
  };
}
