import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { allowPurge, countOlderThan, deleteOlderThan, purgedSince, tryPurgeLock } from './repository';
import {
  countLoginAttemptsBefore,
  countSpentFamilies,
  deleteLoginAttemptsBefore,
  deleteSpentFamilies,
  sessionCutoffs,
  type SessionCutoffs,
  type SessionRetention,
} from './retention-purges';
import { SYSTEM, writeAudit } from './trail';

/**
 * The daily retention run (docs/operations.md, AUDIT_RETENTION_DAYS and LOGIN_ATTEMPTS_RETENTION_DAYS;
 * docs/security.md, Audit log and Retention): audit records older than the retention are deleted once a
 * day, and with them (when `sessions` is given) sign-in attempts past theirs and spent token families
 * (./retention-purges.ts says which and why nothing misses them); each run records itself.
 *
 * - Only this code deletes records: each of its transactions sets `panel.audit_purge` for itself, which
 *   the immutability trigger of migration 0015 checks; anything else is refused by the database.
 * - One process purges: the run's first transaction takes a transaction-level advisory lock (keyed by
 *   the schema) and, holding it, writes the run's `audit.purge` record before deleting anything — the
 *   number of records older than the cut-off, and the cut-off. A process that finds the lock taken, or
 *   such a record younger than `oncePer`, leaves the day's purge to the one that wrote it.
 * - Deletes go in batches, one transaction each, oldest first, so a large first purge never holds one
 *   long transaction; a run that stops half-way leaves the rest to the next day's. The audit log goes
 *   first, then the attempts, then the families, all under the one decision (lock and record) above.
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
  /** Purge `login_attempts` and `token_families` too, with these settings. */
  sessions?: SessionRetention;
}

export interface PurgeResult {
  /** Records deleted by this run. */
  deleted: number;
  /** Records older than this instant were deleted. */
  cutoff: Date;
  /** With `sessions`: sign-in attempts deleted, made before `cutoff`. */
  loginAttempts?: { deleted: number; cutoff: Date };
  /** With `sessions`: token families deleted, begun before `begunBefore` or revoked before `revokedBefore`. */
  tokenFamilies?: { deleted: number; begunBefore: Date; revokedBefore: Date };
}

const iso = (date: Date) => JSON.stringify(date.toISOString());

/** Deletes in batches of `batch` until a batch comes back short; how many went. */
async function inBatches(batch: number, deleteOne: () => Promise<number>): Promise<number> {
  let deleted = 0;
  for (;;) {
    const last = await deleteOne();
    deleted += last;
    if (last < batch) return deleted;
  }
}

/** One purge run; null when another process purges (or purged within `oncePer`). */
export async function purgeAuditLog(db: Kysely<Database>, options: PurgeOptions): Promise<PurgeResult | null> {
  const now = options.now ?? new Date();
  const batch = options.batch ?? PURGE_BATCH;
  const cutoff = new Date(now.getTime() - options.retentionDays * DAY_MS);
  const sessions: SessionCutoffs | undefined = options.sessions && sessionCutoffs(now, options.sessions);
  const first = await db.transaction().execute(async (trx) => {
    if (!(await tryPurgeLock(trx))) return null;
    if (options.oncePer !== undefined && (await purgedSince(trx, new Date(now.getTime() - options.oncePer))))
      return null;
    const older = await countOlderThan(trx, cutoff);
    const changes = [
      { field: 'deleted', before: null, after: JSON.stringify(older) },
      { field: 'cutoff', before: null, after: iso(cutoff) },
      { field: 'retention_days', before: null, after: JSON.stringify(options.retentionDays) },
    ];
    if (sessions && options.sessions) {
      // What will go, counted under the lock: both only grow older, so the counts are what the run deletes.
      // Token families are sessions (one per sign-in); the writer refuses field names holding `token`.
      const attempts = await countLoginAttemptsBefore(trx, sessions.loginAttempts);
      const families = await countSpentFamilies(trx, sessions);
      changes.push(
        { field: 'login_attempts_deleted', before: null, after: JSON.stringify(attempts) },
        { field: 'login_attempts_cutoff', before: null, after: iso(sessions.loginAttempts) },
        {
          field: 'login_attempts_retention_days',
          before: null,
          after: JSON.stringify(options.sessions.loginAttemptsDays),
        },
        { field: 'sessions_deleted', before: null, after: JSON.stringify(families) },
        { field: 'sessions_begun_cutoff', before: null, after: iso(sessions.familiesBegun) },
        { field: 'sessions_revoked_cutoff', before: null, after: iso(sessions.familiesRevoked) },
      );
    }
    await writeAudit(trx, SYSTEM, {
      operation: 'audit.purge',
      target: { id: null, name: null },
      tenantId: null,
      changes,
    });
    await allowPurge(trx);
    return { older, deleted: await deleteOlderThan(trx, cutoff, batch) };
  });
  if (!first) return null;
  let deleted = first.deleted;
  if (first.deleted === batch) {
    deleted += await inBatches(batch, () =>
      db.transaction().execute(async (trx) => {
        await allowPurge(trx);
        return deleteOlderThan(trx, cutoff, batch);
      }),
    );
  }
  if (!sessions) return { deleted, cutoff };
  const attempts = await inBatches(batch, () => deleteLoginAttemptsBefore(db, sessions.loginAttempts, batch));
  const families = await inBatches(batch, () => deleteSpentFamilies(db, sessions, batch));
  return {
    deleted,
    cutoff,
    loginAttempts: { deleted: attempts, cutoff: sessions.loginAttempts },
    tokenFamilies: { deleted: families, begunBefore: sessions.familiesBegun, revokedBefore: sessions.familiesRevoked },
  };
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
 * With `sessions` each run purges sign-in attempts and token families too.
 */
export function startAuditPurge(options: {
  db: Kysely<Database>;
  retentionDays: number;
  sessions?: SessionRetention;
  log: FastifyBaseLogger;
  firstDelayMs?: number;
  intervalMs?: number;
}): AuditPurgeSchedule {
  const { db, retentionDays, sessions, log } = options;
  const intervalMs = options.intervalMs ?? DAY_MS;
  // Processes started at different hours each run daily; the first of them in a day purges.
  const oncePer = Math.max(intervalMs - Math.min(3_600_000, intervalMs / 2), 0);
  let running: Promise<PurgeResult | null> | undefined;
  let stopped = false;
  let interval: NodeJS.Timeout | undefined;

  async function runOnce(): Promise<PurgeResult | null> {
    const result = await purgeAuditLog(db, { retentionDays, oncePer, ...(sessions ? { sessions } : {}) });
    if (result) {
      log.info(
        { deleted: result.deleted, cutoff: result.cutoff.toISOString(), retentionDays },
        'audit purge: deleted the records older than the retention',
      );
      if (result.loginAttempts && result.tokenFamilies)
        log.info(
          {
            loginAttempts: result.loginAttempts.deleted,
            loginAttemptsCutoff: result.loginAttempts.cutoff.toISOString(),
            tokenFamilies: result.tokenFamilies.deleted,
            familiesBegunBefore: result.tokenFamilies.begunBefore.toISOString(),
            familiesRevokedBefore: result.tokenFamilies.revokedBefore.toISOString(),
          },
          'retention purge: deleted sign-in attempts past their retention and spent token families',
        );
    }
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
