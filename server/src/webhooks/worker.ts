import { sql, type Kysely } from 'kysely';
import type { Database, WebhookAttemptError } from '../db/schema';
import type { WebhookSettings } from '../base/config';
import type { EventBus } from '../base/events';
import { signingSecrets } from './secrets';
import { signatureHeader } from './signature';
import { sendAttempt, type AttemptResult } from './send';
import type { guardedLookup } from './addresses';
import type { WebhookProgress } from './progress';

/**
 * The delivery worker (docs/webhooks.md, Retries; docs/operations.md, Webhooks). The queue is
 * `webhook_deliveries` in the database, so any number of processes may each run one:
 *
 * - claim: due `pending` rows of active, live endpoints of live tenants, `FOR UPDATE SKIP LOCKED`, become `sending` with a
 *   lease (`locked_until`, the attempt's timeout and {@link LEASE_MARGIN_MS}) and their attempt counted;
 *   a row whose lease ran out (its process died mid-send) goes back to `pending`, and is sent again with the
 *   same idempotency key (a receiver drops the repeat);
 * - send (./send.ts) signed with the endpoint's secrets (./signature.ts), then settle: succeeded, failed,
 *   or pending again at its retry time; every attempt recorded in `webhook_attempts`. Settling checks the
 *   lease is still this worker's, so a row reclaimed meanwhile is not settled twice;
 * - a run whose last delivery settled gets `finished_at`; its progress goes out on the socket (./progress.ts).
 *
 * Paused endpoints' deliveries stay pending (not claimed), and so do a deleted tenant's (sent if it is
 * restored); a deleted endpoint's are cancelled.
 */

/** Added to the attempt's timeout for a lease: the time a live worker needs to record its outcome. */
export const LEASE_MARGIN_MS = 5_000;

export const WEBHOOK_USER_AGENT = 'BackofficePanel-Webhooks/1.0';

type Settings = Pick<
  WebhookSettings,
  'timeoutMs' | 'maxAttempts' | 'retryBaseMs' | 'retryMaxMs' | 'concurrency' | 'pollMs' | 'allowLoopback'
>;

export interface WebhookWorkerOptions {
  db: Kysely<Database>;
  settings: Settings;
  progress?: WebhookProgress;
  /** Run progress published here (any process's, through the relay) wakes the worker at once. */
  events?: EventBus;
  log?: { warn(object: unknown, message: string): void; error(object: unknown, message: string): void };
  /** The clock of claims, leases and retry times (tests inject one). */
  now?: () => Date;
  /** [0, 1): the retry delays' jitter (tests inject one). */
  random?: () => number;
  /** How endpoint hosts are resolved (tests inject one). */
  resolve?: Parameters<typeof guardedLookup>[1];
  leaseMarginMs?: number;
}

export interface WebhookWorker {
  /** Look for due deliveries now (a run was generated or queued again). */
  nudge(): void;
  /** Stops claiming and waits for the attempts under way to be recorded. */
  stop(): Promise<void>;
  /**
   * Tests only: stops at once without recording the attempts under way, as a process killed mid-send
   * would; their rows stay `sending` until their lease runs out.
   */
  abandon(): void;
  /** Attempts under way in this worker. */
  inFlight(): number;
}

interface Claimed {
  id: number;
  run_id: number;
  endpoint_id: number;
  idempotency_key: string;
  body: string;
  attempts: number;
}

/** The delay before attempt `attempt + 1`: full jitter under min(max, base × 2^(attempt − 1)). */
export function backoffMs(settings: Pick<Settings, 'retryBaseMs' | 'retryMaxMs'>, attempt: number, random: number) {
  const ceiling = Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.min(attempt - 1, 40));
  return Math.floor(random * ceiling);
}

const RETRIED: ReadonlySet<WebhookAttemptError> = new Set(['timeout', 'connection', 'too_many_requests']);

/** Whether an attempt's outcome is worth another attempt (5xx, 429, a timeout, a connection failure). */
export function isRetried(result: Pick<AttemptResult, 'statusCode' | 'error'>): boolean {
  if (result.error === null) return false;
  if (RETRIED.has(result.error)) return true;
  return result.error === 'http_status' && result.statusCode !== null && result.statusCode >= 500;
}

export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { db, settings } = options;
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const leaseMs = settings.timeoutMs + (options.leaseMarginMs ?? LEASE_MARGIN_MS);
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let abandoned = false;
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let lastUpkeep = Number.NEGATIVE_INFINITY;

  const changed = (runIds: Iterable<number>) => {
    for (const runId of new Set(runIds)) options.progress?.changed(runId);
  };

  /** Leases that ran out go back to pending; a deleted endpoint's pending deliveries are cancelled. */
  async function upkeep(at: Date): Promise<void> {
    const reclaimed = await db
      .updateTable('webhook_deliveries')
      .set({ state: 'pending', next_attempt_at: at, locked_until: null })
      .where('state', '=', 'sending')
      .where('locked_until', '<', at)
      .returning('run_id')
      .execute();
    const cancelled = await db
      .updateTable('webhook_deliveries')
      .set({ state: 'cancelled', next_attempt_at: null, completed_at: at })
      .where('state', '=', 'pending')
      .where('endpoint_id', 'in', (eb) =>
        eb.selectFrom('webhook_endpoints').select('id').where('deleted_at', 'is not', null),
      )
      .returning('run_id')
      .execute();
    changed(reclaimed.map((r) => r.run_id));
    const cancelledRuns = new Set(cancelled.map((r) => r.run_id));
    for (const runId of cancelledRuns) await finishRun(runId, at);
    changed(cancelledRuns);
  }

  async function claim(limit: number, at: Date): Promise<{ rows: Claimed[]; lease: Date }> {
    const lease = new Date(at.getTime() + leaseMs);
    const { rows } = await sql<Claimed>`
      update webhook_deliveries d
      set state = 'sending', locked_until = ${lease}, attempts = d.attempts + 1, next_attempt_at = null
      where d.state = 'pending' and d.id in (
        select q.id from webhook_deliveries q
        join webhook_endpoints e on e.id = q.endpoint_id
        join tenants t on t.id = q.tenant_id
        where q.state = 'pending' and not q.parked and q.next_attempt_at <= ${at} and e.active and e.deleted_at is null
          and t.deleted_at is null
        order by q.next_attempt_at
        limit ${limit}
        for update of q skip locked
      )
      returning d.id, d.run_id, d.endpoint_id, d.idempotency_key, d.body, d.attempts`.execute(db);
    return { rows, lease };
  }

  async function finishRun(runId: number, at: Date): Promise<boolean> {
    const done = await db
      .updateTable('webhook_runs')
      .set({ finished_at: at })
      .where('id', '=', runId)
      .where('finished_at', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('webhook_deliveries')
              .select('id')
              .where('run_id', '=', runId)
              .where('state', 'in', ['pending', 'sending']),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }

  /**
   * The attempts made before this delivery's current series (a redelivery starts a new one, the count going
   * on): the number of its last attempt that ended a series (no retry set) before attempt `current`, or 0.
   */
  async function seriesStart(deliveryId: number, current: number): Promise<number> {
    const row = await db
      .selectFrom('webhook_attempts')
      .select((eb) => eb.fn.max<number>('number').as('n'))
      .where('delivery_id', '=', deliveryId)
      .where('number', '<', current)
      .where('retry_at', 'is', null)
      .executeTakeFirst();
    return row?.n ?? 0;
  }

  async function attempt(row: Claimed, lease: Date): Promise<void> {
    const endpoint = await db
      .selectFrom('webhook_endpoints')
      .select(['id', 'url', 'secret', 'previous_secret', 'previous_secret_expires_at', 'deleted_at'])
      .where('id', '=', row.endpoint_id)
      .executeTakeFirstOrThrow();
    const startedAt = now();
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const secrets = endpoint.deleted_at === null ? signingSecrets(db, endpoint, startedAt) : [];
    if (endpoint.deleted_at === null && secrets.length === 0) {
      // No secret opens (the server's key is not the one it was sealed under: docs/security.md): nothing
      // unsigned ever leaves. The delivery waits, not counted as an attempt, until the key is set right.
      if (abandoned) return;
      await db
        .updateTable('webhook_deliveries')
        .set({
          state: 'pending',
          next_attempt_at: new Date(startedAt.getTime() + settings.retryMaxMs),
          locked_until: null,
          attempts: sql<number>`attempts - 1`,
        })
        .where('id', '=', row.id)
        .where('state', '=', 'sending')
        .where('locked_until', '=', lease)
        .execute();
      options.log?.error(
        { endpointId: endpoint.id, deliveryId: row.id },
        "webhook endpoint's signing secret does not open under the configured key: its deliveries wait, unsent",
      );
      return;
    }
    const result: AttemptResult =
      endpoint.deleted_at !== null
        ? { statusCode: null, error: null, excerpt: '', durationMs: 0, retryAfterMs: null }
        : await sendAttempt({
            url: endpoint.url,
            body: row.body,
            timeoutMs: settings.timeoutMs,
            rules: { allowLoopback: settings.allowLoopback },
            ...(options.resolve ? { resolve: options.resolve } : {}),
            headers: {
              'Content-Type': 'application/json',
              'User-Agent': WEBHOOK_USER_AGENT,
              'Webhook-Id': row.idempotency_key,
              'Webhook-Timestamp': String(timestamp),
              'Webhook-Signature': signatureHeader(secrets, timestamp, row.body),
              'Webhook-Attempt': String(row.attempts),
            },
          });
    if (abandoned) return;
    const settledAt = now();
    const retry =
      endpoint.deleted_at === null &&
      isRetried(result) &&
      row.attempts - (await seriesStart(row.id, row.attempts)) < settings.maxAttempts;
    const retryAt = retry
      ? new Date(
          settledAt.getTime() +
            (result.error === 'too_many_requests' && result.retryAfterMs !== null
              ? Math.min(result.retryAfterMs, settings.retryMaxMs)
              : backoffMs(settings, row.attempts, random())),
        )
      : null;
    const state =
      endpoint.deleted_at !== null ? 'cancelled' : result.error === null ? 'succeeded' : retry ? 'pending' : 'failed';
    const settled = await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('webhook_deliveries')
        .set({
          state,
          next_attempt_at: retryAt,
          locked_until: null,
          ...(endpoint.deleted_at === null
            ? { last_status_code: result.statusCode, last_error: result.error }
            : { attempts: sql<number>`attempts - 1` }),
          completed_at: retry ? null : settledAt,
        })
        .where('id', '=', row.id)
        .where('state', '=', 'sending')
        .where('locked_until', '=', lease)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      if (endpoint.deleted_at === null)
        await trx
          .insertInto('webhook_attempts')
          .values({
            delivery_id: row.id,
            number: row.attempts,
            started_at: startedAt,
            duration_ms: result.durationMs,
            status_code: result.statusCode,
            error: result.error,
            response_excerpt: result.excerpt,
            retry_at: retryAt,
          })
          .execute();
      return true;
    });
    if (!settled) {
      options.log?.warn({ deliveryId: row.id }, 'webhook delivery reclaimed before its outcome was recorded');
      return;
    }
    // After the commit: of two workers settling a run's last two deliveries, the later sees both settled.
    if (state !== 'pending') await finishRun(row.run_id, settledAt);
    changed([row.run_id]);
  }

  function launch(row: Claimed, lease: Date): void {
    const p: Promise<void> = attempt(row, lease)
      .catch((error: unknown) => options.log?.error({ err: error, deliveryId: row.id }, 'webhook attempt failed'))
      .finally(() => {
        inFlight.delete(p);
        if (!stopped) void tick();
      });
    inFlight.add(p);
  }

  function schedule(): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void tick(), settings.pollMs);
    timer.unref();
  }

  /** Claims while there is room and due work; one pass at a time (a call during a pass asks for another). */
  function tick(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = pass().finally(() => {
      running = undefined;
      // Asked again after the pass's last look: another pass, else the next poll.
      if (again && !stopped) void tick();
      else schedule();
    });
    return running;
  }

  async function pass(): Promise<void> {
    try {
      do {
        again = false;
        const at = now();
        if (Date.now() - lastUpkeep >= settings.pollMs) {
          lastUpkeep = Date.now();
          await upkeep(at);
        }
        const free = settings.concurrency - inFlight.size;
        if (free <= 0 || stopped) break;
        const { rows, lease } = await claim(free, at);
        if (abandoned) break;
        if (stopped) {
          // Claimed while stopping: handed back at once rather than left to their lease.
          for (const row of rows)
            await db
              .updateTable('webhook_deliveries')
              .set({ state: 'pending', next_attempt_at: at, locked_until: null, attempts: sql<number>`attempts - 1` })
              .where('id', '=', row.id)
              .where('locked_until', '=', lease)
              .execute();
          break;
        }
        for (const row of rows) launch(row, lease);
        if (rows.length === free) again = true;
      } while (again && !stopped);
    } catch (error) {
      if (!abandoned) options.log?.error({ err: error }, 'webhook worker: claiming failed');
    }
  }

  const unsubscribe = options.events?.subscribe((event) => {
    if (event.event === 'WebhookRunProgress' && (event.data as { pending: number }).pending > 0) void tick();
  });
  void tick();

  return {
    nudge: () => void tick(),
    async stop() {
      stopped = true;
      unsubscribe?.();
      clearTimeout(timer);
      await running;
      await Promise.all([...inFlight]);
    },
    abandon() {
      stopped = true;
      abandoned = true;
      unsubscribe?.();
      clearTimeout(timer);
    },
    inFlight: () => inFlight.size,
  };
}
