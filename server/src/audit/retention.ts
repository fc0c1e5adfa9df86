import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { allowPurge, countOlderThan, deleteOlderThan, purgedSince, tryPurgeLock } from './repository';
import { SYSTEM, writeAudit } from './trail';

/**
 * The audit log's retention (docs/operations.md, AUDIT_RETENTION_DAYS; docs/security.md, Audit log):
 * records older than the retention are deleted once a day, and each run records itself.
 *
 * - Only this code deletes records: each of its transactions sets `panel.audit_purge` for itself, which
 *   the immutability trigger of migration 0015 checks; anything else is refused by the database.
 * - One process purges: the run's first transaction takes a transaction-level advisory lock (keyed by
 *   the schema) and, holding it, writes the run's `audit.purge` record before deleting anything — the
 *   number of records older than the cut-off, and the cut-off. A process that finds the lock taken, or
 *   such a record younger than `oncePer`, leaves the day's purge to the one that wrote it.
 * - Deletes go in batches, one transaction each, oldest first, so a large first purge never holds one
 *   long transaction; a run that stops half-way leaves the rest to the next day's.
 */

const DAY_MS = 86_400_000;
/** Records deleted per transaction. */
export const PURGE_BATCH = 5_000;

export interface PurgeOptions {
  retentionDays: number;
  /** The run's instant (tests); the cut-off is this minus the retention. */
  now?: Date;
  batch?: number;
  /** Skip the run when a purge was recorded within this many milliseconds (another process's). */
  oncePer?: number;
}

export interface PurgeResult {
  /** Records deleted by this run. */
  deleted: number;
  /** Records older than this instant were deleted. */
  cutoff: Date;
}

/** One purge run; null when another process purges (or purged within `oncePer`). */
export async function purgeAuditLog(db: Kysely<Database>, options: PurgeOptions): Promise<PurgeResult | null> {
  const now = options.now ?? new Date();
  const batch = options.batch ?? PURGE_BATCH;
  const cutoff = new Date(now.getTime() - options.retentionDays * DAY_MS);
  const first = await db.transaction().execute(async (trx) => {
    if (!(await tryPurgeLock(trx))) return null;
    if (options.oncePer !== undefined && (await purgedSince(trx, new Date(now.getTime() - options.oncePer))))
      return null;
    const older = await countOlderThan(trx, cutoff);
    await writeAudit(trx, SYSTEM, {
      operation: 'audit.purge',
      target: { id: null, name: null },
      tenantId: null,
      changes: [
        { field: 'deleted', before: null, after: JSON.stringify(older) },
        { field: 'cutoff', before: null, after: JSON.stringify(cutoff.toISOString()) },
        { field: 'retention_days', before: null, after: JSON.stringify(options.retentionDays) },
      ],
    });
    await allowPurge(trx);
    return { older, deleted: await deleteOlderThan(trx, cutoff, batch) };
  });
  if (!first) return null;
  let deleted = first.deleted;
  let last = first.deleted;
  while (last === batch) {
    last = await db.transaction().execute(async (trx) => {
      await allowPurge(trx);
      return deleteOlderThan(trx, cutoff, batch);
    });
    deleted += last;
  }
  return { deleted, cutoff };
}

export interface AuditPurgeSchedule {
  /** Runs one purge now (as the timer would); null when another process purges. */
  run(): Promise<PurgeResult | null>;
  /** Stops the timers and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * The daily purge: the first run `firstDelayMs` after start (default a minute, so a starting server
 * serves first), then every `intervalMs` (default 24 h). The timers do not keep the process alive;
 * `stop()` (on shutdown, before the database closes) clears them and waits for a run in progress.
 */
export function startAuditPurge(options: {
  db: Kysely<Database>;
  retentionDays: number;
  log: FastifyBaseLogger;
  firstDelayMs?: number;
  intervalMs?: number;
}): AuditPurgeSchedule {
  const { db, retentionDays, log } = options;
  const intervalMs = options.intervalMs ?? DAY_MS;
  // Processes started at different hours each run daily; the first of them in a day purges.
  const oncePer = Math.max(intervalMs - Math.min(3_600_000, intervalMs / 2), 0);
  let running: Promise<PurgeResult | null> | undefined;
  let stopped = false;
  let interval: NodeJS.Timeout | undefined;

  async function runOnce(): Promise<PurgeResult | null> {
    const result = await purgeAuditLog(db, { retentionDays, oncePer });
    if (result)
      log.info(
        { deleted: result.deleted, cutoff: result.cutoff.toISOString(), retentionDays },
        'audit purge: deleted the records older than the retention',
      );
    return result;
  }

  function run(): Promise<PurgeResult | null> {
    running ??= runOnce()
      .catch((error: unknown) => {
        log.error({ err: error }, 'audit purge failed; the next run tries again');
        return null;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  const first = setTimeout(() => {
    if (stopped) return;
    void run();
    interval = setInterval(() => void run(), intervalMs);
    interval.unref();
  }, options.firstDelayMs ?? 60_000);
  first.unref();

  return {
    run,
    async stop() {
      stopped = true;
      clearTimeout(first);
      if (interval) clearInterval(interval);
      await running;
    },
  };
}
