import { sql } from 'kysely';
import pino from 'pino';
import { loadConfig } from '../base/config';
import { openTestDatabase } from '../test-support/database';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { purgeAuditLog, startAuditPurge } from './retention';

const DAY = 86_400_000;

/** The retention purge (server/src/audit/retention.ts) on both databases. */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: the audit retention purge', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    database = await openTestDatabase(cluster?.url);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await cluster?.stop();
  });

  /** Empties the log the only way the database allows: as the purge does. */
  async function empty() {
    await database.db.transaction().execute(async (trx) => {
      await sql`select set_config('panel.audit_purge', 'on', true)`.execute(trx);
      await trx.deleteFrom('audit_log').execute();
    });
  }

  /** `n` records `daysOld` days before `now`, about `targetId` (inserts may set `at`; only updates and deletes are refused). */
  async function insertOld(now: Date, daysOld: number, n: number, targetId: number) {
    const at = new Date(now.getTime() - daysOld * DAY);
    await database.db
      .insertInto('audit_log')
      .values(
        Array.from({ length: n }, (_, i) => ({
          at: new Date(at.getTime() + i),
          operation: 'tenant.update',
          target_type: 'tenant',
          target_id: targetId,
          changes: '[]',
        })),
      )
      .execute();
  }

  const left = async () =>
    (await database.db.selectFrom('audit_log').select(['target_id', 'operation']).orderBy('id').execute()).map((r) =>
      r.operation === 'audit.purge' ? 'purge' : r.target_id,
    );

  const purges = () =>
    database.db.selectFrom('audit_log').selectAll().where('operation', '=', 'audit.purge').orderBy('id').execute();

  it('with a retention of 30 days deletes the records 40 days old, keeps those 10 days old, and records itself', async () => {
    await empty();
    const now = new Date();
    await insertOld(now, 40, 3, 40);
    await insertOld(now, 10, 2, 10);
    const result = await purgeAuditLog(database.db, { retentionDays: 30, now });
    expect(result).toEqual({ deleted: 3, cutoff: new Date(now.getTime() - 30 * DAY) });
    expect(await left()).toEqual([10, 10, 'purge']);
    const [record] = await purges();
    expect(record).toMatchObject({
      actor_user_id: null,
      actor_name: null,
      actor_tenant_id: null,
      address: null,
      request_id: null,
      operation: 'audit.purge',
      target_type: 'system',
      target_id: null,
      tenant_id: null,
      changes: [
        { field: 'deleted', before: null, after: '3' },
        { field: 'cutoff', before: null, after: JSON.stringify(new Date(now.getTime() - 30 * DAY).toISOString()) },
        { field: 'retention_days', before: null, after: '30' },
      ],
    });
  });

  it('records a run that found nothing to delete, so operators see it ran', async () => {
    await empty();
    await insertOld(new Date(), 1, 2, 1);
    expect(await purgeAuditLog(database.db, { retentionDays: 30 })).toMatchObject({ deleted: 0 });
    expect((await purges()).map((p) => p.changes)).toEqual([
      expect.arrayContaining([{ field: 'deleted', before: null, after: '0' }]),
    ]);
    expect(await left()).toEqual([1, 1, 'purge']);
  });

  it('deletes in batches until every old record is gone', async () => {
    await empty();
    const now = new Date();
    await insertOld(now, 400, 11, 400);
    await insertOld(now, 2, 1, 2);
    expect(await purgeAuditLog(database.db, { retentionDays: 365, now, batch: 3 })).toMatchObject({ deleted: 11 });
    expect(await left()).toEqual([2, 'purge']);
  });

  it('purges once per period across processes: a run that finds a recent purge record, or the lock taken, skips', async () => {
    await empty();
    const now = new Date();
    await insertOld(now, 50, 5, 50);
    const runs = await Promise.all(
      Array.from({ length: 4 }, () => purgeAuditLog(database.db, { retentionDays: 30, now, oncePer: 23 * 3_600_000 })),
    );
    expect(runs.filter((r) => r !== null)).toEqual([{ deleted: 5, cutoff: new Date(now.getTime() - 30 * DAY) }]);
    expect(await purges()).toHaveLength(1);
    expect(await purgeAuditLog(database.db, { retentionDays: 30, now, oncePer: 23 * 3_600_000 })).toBeNull();
    expect(await purges()).toHaveLength(1);
  });

  it('leaves every other delete refused by the database', async () => {
    await insertOld(new Date(), 100, 1, 100);
    await expect(database.db.deleteFrom('audit_log').where('target_id', '=', 100).execute()).rejects.toThrow(
      /cannot be changed or deleted/,
    );
  });

  it('runs on its timer shortly after start, and stop() ends the schedule', async () => {
    await empty();
    await insertOld(new Date(), 500, 2, 500);
    const schedule = startAuditPurge({
      db: database.db,
      retentionDays: 365,
      log: pino({ level: 'silent' }),
      firstDelayMs: 20,
      intervalMs: 60_000,
    });
    await vi.waitFor(async () => expect(await purges()).toHaveLength(1), { timeout: 10_000, interval: 50 });
    await schedule.stop();
    expect(await left()).toEqual(['purge']);
    // Stopped before its first run: it never runs.
    const idle = startAuditPurge({
      db: database.db,
      retentionDays: 365,
      log: pino({ level: 'silent' }),
      firstDelayMs: 30,
    });
    await idle.stop();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await purges()).toHaveLength(1);
  });
});

describe('AUDIT_RETENTION_DAYS', () => {
  afterEach(() => {
    delete process.env.AUDIT_RETENTION_DAYS;
  });

  it('defaults to 365 and takes a whole number of days', () => {
    expect(loadConfig().auditRetentionDays).toBe(365);
    process.env.AUDIT_RETENTION_DAYS = '30';
    expect(loadConfig().auditRetentionDays).toBe(30);
  });

  it.each(['0', '-5', '1.5', 'um ano'])('refuses %j at start with a clear message', (value) => {
    process.env.AUDIT_RETENTION_DAYS = value;
    expect(() => loadConfig()).toThrow(`AUDIT_RETENTION_DAYS must be an integer ≥ 1, got "${value}"`);
  });
});
