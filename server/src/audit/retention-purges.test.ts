import { sql } from 'kysely';
import pino from 'pino';
import { TokenService } from '../auth/tokens';
import { loadConfig } from '../base/config';
import { openTestDatabase } from '../test-support/database';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { createTestUser } from '../test-support/users';
import { purgeAuditLog, startAuditPurge } from './retention';
import { TOKEN_FAMILY_GRACE_MS, type SessionRetention } from './retention-purges';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * The daily retention run's purges of `login_attempts` and `token_families` (server/src/audit/retention-purges.ts)
 * on both databases: what goes, what stays, that the run's one record counts them, that one process
 * purges, and that a token answers the same whether its spent family is still there or gone.
 */
describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('%s: retention of sign-in attempts and token families', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let userId: number;
  let tokens: TokenService;
  const config = loadConfig({ refreshWindow: 14 * 86_400, accessTokenTtl: 900, rotationGrace: 10 });
  const retention: SessionRetention = {
    loginAttemptsDays: 90,
    loginWindowSeconds: 900,
    refreshWindowSeconds: config.refreshWindow,
    accessTokenTtlSeconds: config.accessTokenTtl,
  };

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    database = await openTestDatabase(cluster?.url);
    await database.db
      .insertInto('tenants')
      .values({
        name: 'retencao',
        cnpj: '11.222.333/0001-81',
        template: 't',
        pool: 'p',
        plan: 'starter',
        user_limit: 5,
        ticket_limit: 10,
      })
      .execute();
    await database.db.insertInto('roles').values({ name: 'retencao', display_name: 'Retenção' }).execute();
    userId = (await createTestUser(database.db, { email: 'retencao@demo.local', tenant: 'retencao', role: 'retencao' }))
      .id;
    tokens = new TokenService(database.db, config);
    await tokens.init();
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await cluster?.stop();
  });

  /** Empties the three tables (the audit log the only way the database allows: as the purge does). */
  async function empty() {
    await database.db.transaction().execute(async (trx) => {
      await sql`select set_config('panel.audit_purge', 'on', true)`.execute(trx);
      await trx.deleteFrom('audit_log').execute();
    });
    await database.db.deleteFrom('login_attempts').execute();
    await database.db.deleteFrom('token_families').execute();
  }

  async function attempts(now: Date, ageMs: number, n: number, email: string) {
    await database.db
      .insertInto('login_attempts')
      .values(
        Array.from({ length: n }, (_, i) => ({
          email,
          ip: '198.51.100.4',
          remote_address: '203.0.113.7',
          user_id: userId,
          success: false,
          created_at: new Date(now.getTime() - ageMs - i),
        })),
      )
      .execute();
  }

  const attemptsLeft = async () =>
    (await database.db.selectFrom('login_attempts').select('email').orderBy('id').execute()).map((r) => r.email);

  /** A family issued now, then aged: begun `begunAgoMs` ago, revoked `revokedAgoMs` ago when given. */
  async function family(now: Date, begunAgoMs: number, revokedAgoMs?: number) {
    const { token } = await tokens.issue(userId, 0);
    const fam = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { fam: string }).fam;
    await database.db
      .updateTable('token_families')
      .set({
        created_at: new Date(now.getTime() - begunAgoMs),
        refreshed_at: new Date(now.getTime() - begunAgoMs),
        revoked_at: revokedAgoMs === undefined ? null : new Date(now.getTime() - revokedAgoMs),
      })
      .where('id', '=', fam)
      .execute();
    return { token, fam };
  }

  const familiesLeft = async () =>
    new Set((await database.db.selectFrom('token_families').select('id').execute()).map((r) => r.id));

  const purges = () =>
    database.db.selectFrom('audit_log').selectAll().where('operation', '=', 'audit.purge').orderBy('id').execute();

  it('deletes attempts older than the retention and keeps the younger', async () => {
    await empty();
    const now = new Date();
    await attempts(now, 100 * DAY, 3, 'velha@demo.local');
    await attempts(now, 10 * DAY, 2, 'nova@demo.local');
    const result = await purgeAuditLog(database.db, { retentionDays: 365, now, sessions: retention });
    expect(result?.loginAttempts).toEqual({ deleted: 3, cutoff: new Date(now.getTime() - 90 * DAY) });
    expect(await attemptsLeft()).toEqual(['nova@demo.local', 'nova@demo.local']);
  });

  it('never keeps attempts for less than the throttle window, whatever the retention says', async () => {
    await empty();
    const now = new Date();
    const window = { ...retention, loginAttemptsDays: 1, loginWindowSeconds: 3 * 86_400 };
    await attempts(now, 2 * DAY, 2, 'na-janela@demo.local');
    await attempts(now, 4 * DAY, 1, 'fora@demo.local');
    const result = await purgeAuditLog(database.db, { retentionDays: 365, now, sessions: window });
    expect(result?.loginAttempts).toEqual({ deleted: 1, cutoff: new Date(now.getTime() - 3 * DAY) });
    expect(await attemptsLeft()).toEqual(['na-janela@demo.local', 'na-janela@demo.local']);
  });

  it('deletes families revoked past the grace or begun before the longest refresh window could end, keeps the rest', async () => {
    await empty();
    const now = new Date();
    const life = (config.refreshWindow + config.accessTokenTtl) * 1000 + TOKEN_FAMILY_GRACE_MS;
    const expired = await family(now, life + HOUR);
    const stillUsable = await family(now, life - HOUR);
    const revokedLongAgo = await family(now, 3 * DAY, 2 * DAY);
    const revokedJustNow = await family(now, 3 * DAY, HOUR);
    const live = await family(now, DAY);
    const result = await purgeAuditLog(database.db, { retentionDays: 365, now, sessions: retention });
    expect(result?.tokenFamilies).toEqual({
      deleted: 2,
      begunBefore: new Date(now.getTime() - life),
      revokedBefore: new Date(now.getTime() - TOKEN_FAMILY_GRACE_MS),
    });
    expect(await familiesLeft()).toEqual(new Set([stillUsable.fam, revokedJustNow.fam, live.fam]));
    expect((await familiesLeft()).has(expired.fam) || (await familiesLeft()).has(revokedLongAgo.fam)).toBe(false);
  });

  it('answers a token of a deleted family as it answered before: refused; a kept family still works', async () => {
    await empty();
    const now = new Date();
    const revoked = await family(now, 3 * DAY, 2 * DAY);
    const live = await family(now, HOUR);
    const before = await tokens.verify(revoked.token);
    expect(before).toEqual({ ok: false, body: { status: 'Unauthorized' } });
    await purgeAuditLog(database.db, { retentionDays: 365, now, sessions: retention });
    expect(await familiesLeft()).toEqual(new Set([live.fam]));
    expect(await tokens.verify(revoked.token)).toEqual(before);
    expect(await tokens.verify(live.token)).toMatchObject({ ok: true, userId });
    // Its user's other sessions are untouched, and no reuse was detected (nothing was revoked).
    expect(
      await database.db.selectFrom('token_families').select('revoked_at').where('id', '=', live.fam).executeTakeFirst(),
    ).toEqual({ revoked_at: null });
  });

  it('records what it deletes in the run’s one audit.purge record, in batches, once across processes', async () => {
    await empty();
    const now = new Date();
    await attempts(now, 200 * DAY, 7, 'lote@demo.local');
    await attempts(now, DAY, 1, 'fica@demo.local');
    await family(now, 30 * DAY);
    await family(now, 30 * DAY, 20 * DAY);
    await family(now, 10 * DAY, 9 * DAY);
    await family(now, HOUR);
    const runs = await Promise.all(
      Array.from({ length: 3 }, () =>
        purgeAuditLog(database.db, { retentionDays: 365, now, batch: 2, oncePer: 23 * HOUR, sessions: retention }),
      ),
    );
    const done = runs.filter((r) => r !== null);
    expect(done).toHaveLength(1);
    expect(done[0]?.loginAttempts?.deleted).toBe(7);
    expect(done[0]?.tokenFamilies?.deleted).toBe(3);
    expect(await attemptsLeft()).toEqual(['fica@demo.local']);
    expect((await familiesLeft()).size).toBe(1);
    const [record, ...more] = await purges();
    expect(more).toEqual([]);
    const changes = Object.fromEntries(
      (record?.changes as { field: string; after: string }[]).map((c) => [c.field, JSON.parse(c.after) as unknown]),
    );
    expect(changes).toEqual({
      deleted: 0,
      cutoff: new Date(now.getTime() - 365 * DAY).toISOString(),
      retention_days: 365,
      login_attempts_deleted: 7,
      login_attempts_cutoff: new Date(now.getTime() - 90 * DAY).toISOString(),
      login_attempts_retention_days: 90,
      sessions_deleted: 3,
      sessions_begun_cutoff: new Date(
        now.getTime() - (config.refreshWindow + config.accessTokenTtl) * 1000 - TOKEN_FAMILY_GRACE_MS,
      ).toISOString(),
      sessions_revoked_cutoff: new Date(now.getTime() - TOKEN_FAMILY_GRACE_MS).toISOString(),
    });
  });

  it('runs on the daily schedule with the audit purge', async () => {
    await empty();
    const now = new Date();
    await attempts(now, 120 * DAY, 2, 'agenda@demo.local');
    await family(now, 40 * DAY);
    const schedule = startAuditPurge({
      db: database.db,
      retentionDays: 365,
      sessions: retention,
      log: pino({ level: 'silent' }),
      firstDelayMs: 20,
      intervalMs: 60_000,
    });
    await vi.waitFor(async () => expect(await purges()).toHaveLength(1), { timeout: 10_000, interval: 50 });
    await schedule.stop();
    expect(await attemptsLeft()).toEqual([]);
    expect((await familiesLeft()).size).toBe(0);
  });
});

describe('LOGIN_ATTEMPTS_RETENTION_DAYS', () => {
  afterEach(() => {
    delete process.env.LOGIN_ATTEMPTS_RETENTION_DAYS;
  });

  it('defaults to 90 and takes a whole number of days', () => {
    expect(loadConfig().loginAttemptsRetentionDays).toBe(90);
    process.env.LOGIN_ATTEMPTS_RETENTION_DAYS = '30';
    expect(loadConfig().loginAttemptsRetentionDays).toBe(30);
  });

  it.each(['0', '-5', '1.5', 'noventa'])('refuses %j at start with a clear message', (value) => {
    process.env.LOGIN_ATTEMPTS_RETENTION_DAYS = value;
    expect(() => loadConfig()).toThrow(`LOGIN_ATTEMPTS_RETENTION_DAYS must be an integer ≥ 1, got "${value}"`);
  });
});
