import { loadConfig, type WebhookSettings } from '../base/config';
import { openDatabase, type OpenDatabase } from '../db/connect';
import { initTotpEncryption } from '../auth/totp-secrets';
import { saoPauloDay } from '../db/analytics';
import { startTestApp, type TestApp } from '../test-support/app';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { loginOn, startServerProcess, stopServerProcess, type ServerProcess } from '../test-support/processes';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver';
import { insertEndpoint, insertMessages, until } from '../test-support/webhooks';
import { startWebhookWorker, type WebhookWorker } from './worker';

/**
 * The queue shared by several workers on one PostgreSQL (docs/webhooks.md, Retries; docs/operations.md,
 * Webhooks): two workers on their own connection pools never send one delivery twice; a worker that dies
 * mid-run leaves its deliveries to the other once their lease ends, the only repeats being the ones it had
 * under way; and a real server process killed mid-run (SIGKILL) and started again completes the run.
 */
const DELIVERIES = 200;

describe('webhook deliveries with several workers on PostgreSQL', () => {
  let cluster: ThrowawayPostgres;
  let t: TestApp;
  let second: OpenDatabase;
  let admin: { authorization: string };
  let tenantId: number;
  let receiver: WebhookReceiver;
  let settings: WebhookSettings;
  let day = 0;
  const workers: WebhookWorker[] = [];
  const processes: ServerProcess[] = [];

  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
    settings = {
      ...loadConfig().webhooks,
      worker: false,
      allowLoopback: true,
      timeoutMs: 2_000,
      concurrency: 4,
      pollMs: 50,
      retryBaseMs: 100,
    };
    t = await startTestApp({ databaseUrl: cluster.url, seed: { days: 1 }, config: { webhooks: settings } });
    // Another process's connections: the second worker claims through a pool of its own.
    second = await openDatabase(t.databaseUrl);
    // As a server process does at start (server/src/app.ts): the key of the signing secrets, from the database.
    await initTotpEncryption(second.db, loadConfig());
    admin = await t.auth('admin@demo.local');
    tenantId = (
      await t.db.selectFrom('tenants').select('id').where('name', '=', 'farmacia-central').executeTakeFirstOrThrow()
    ).id;
  }, 240_000);

  afterAll(async () => {
    for (const proc of processes) await stopServerProcess(proc, 'SIGKILL');
    await second?.close();
    await t?.close();
    await cluster?.stop();
  });

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    await t.db
      .updateTable('webhook_endpoints')
      .set({ deleted_at: new Date() })
      .where('deleted_at', 'is', null)
      .execute();
    day += 1;
  });

  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.stop();
    await receiver.close();
  });

  /** A run of {@link DELIVERIES} deliveries to one new endpoint at the receiver: its id and idempotency keys. */
  async function bigRun(through?: ServerProcess): Promise<{ runId: number; keys: Set<string> }> {
    const date = saoPauloDay(new Date(Date.now() - (20 + day) * 86_400_000));
    const endpoint = await insertEndpoint(t.db, { tenantId, url: receiver.url });
    receiver.secrets = [endpoint.secret];
    await insertMessages(t.db, { tenantId, count: DELIVERIES, at: new Date(`${date}T15:00:00Z`) });
    const url = `/api/tenant/generate-campaign-status-webhook?tenantName=farmacia-central&startAt=${date}&finishAt=${date}&type=delivered`;
    // Through a server process's REST door when given (its worker hears of the run at once), else in process.
    const answer = through
      ? await fetch(`${through.base}${url}`, {
          headers: { authorization: `Bearer ${(await loginOn(through.base)).token}` },
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { deliveryId: number } }))
      : await t.app.fastify
          .inject({ url, headers: admin })
          .then((r) => ({ status: r.statusCode, body: r.json<{ deliveryId: number }>() }));
    expect(answer.status).toBe(200);
    const runId = answer.body.deliveryId;
    const rows = await t.db
      .selectFrom('webhook_deliveries')
      .select('idempotency_key')
      .where('run_id', '=', runId)
      .execute();
    expect(rows).toHaveLength(DELIVERIES);
    return { runId, keys: new Set(rows.map((r) => r.idempotency_key)) };
  }

  const finished = async (runId: number) =>
    (await t.db.selectFrom('webhook_runs').select('finished_at').where('id', '=', runId).executeTakeFirstOrThrow())
      .finished_at !== null;

  async function states(runId: number) {
    const rows = await t.db.selectFrom('webhook_deliveries').select(['state']).where('run_id', '=', runId).execute();
    return rows.reduce<Record<string, number>>((n, r) => ({ ...n, [r.state]: (n[r.state] ?? 0) + 1 }), {});
  }

  /**
   * Each delivery's arrivals at the receiver against its recorded attempts: an arrival beyond a key's first
   * is either an attempt whose outcome was recorded as worth a retry (a timeout under load arrives and is
   * sent again, the receiver dropping the repeat by its key) or an attempt that was never recorded (the
   * dead worker's, under way when it died, its number skipped in `webhook_attempts`).
   */
  async function unexplainedArrivals(runId: number) {
    const rows = await t.db
      .selectFrom('webhook_deliveries as d')
      .leftJoin('webhook_attempts as a', 'a.delivery_id', 'd.id')
      .select((eb) => [
        'd.idempotency_key as key',
        'd.attempts as made',
        eb.fn.count<string>('a.number').as('recorded'),
      ])
      .where('d.run_id', '=', runId)
      .groupBy(['d.id', 'd.idempotency_key', 'd.attempts'])
      .execute();
    const arrived = new Map<string, number>();
    for (const a of receiver.arrivals) arrived.set(a.id, (arrived.get(a.id) ?? 0) + 1);
    let unrecorded = 0;
    const unexplained: string[] = [];
    for (const row of rows) {
      unrecorded += row.made - Number(row.recorded);
      if ((arrived.get(row.key) ?? 0) > row.made) unexplained.push(row.key);
    }
    return { unrecorded, unexplained };
  }

  it('two workers on their own pools send each delivery exactly once', { timeout: 90_000 }, async () => {
    receiver.fallback = { delayMs: 5, status: 200 };
    const { runId, keys } = await bigRun();
    workers.push(startWebhookWorker({ db: t.db, settings }), startWebhookWorker({ db: second.db, settings }));
    await until(() => finished(runId), 60_000, 'the run to finish');
    expect(receiver.arrivals).toHaveLength(DELIVERIES);
    expect(receiver.keys()).toEqual(keys);
    expect(receiver.arrivals.every((a) => a.verified[0] === true && a.attempt === 1)).toBe(true);
    expect(await states(runId)).toEqual({ succeeded: DELIVERIES });
    const attempts = await t.db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('d.run_id', '=', runId)
      .executeTakeFirstOrThrow();
    expect(Number(attempts.n)).toBe(DELIVERIES);
  });

  it(
    'a worker that dies mid-run leaves its deliveries to the other after their lease; only those under way repeat',
    {
      timeout: 90_000,
    },
    async () => {
      receiver.fallback = { delayMs: 30, status: 200 };
      const { runId, keys } = await bigRun();
      const doomed = startWebhookWorker({ db: second.db, settings, leaseMarginMs: 200 });
      await receiver.waitFor(20);
      // As a killed process: nothing more is recorded, its claimed rows stay `sending` until their lease ends.
      doomed.abandon();
      const abandoned = Number(
        (
          await t.db
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('run_id', '=', runId)
            .where('state', '=', 'sending')
            .executeTakeFirstOrThrow()
        ).n,
      );
      expect(abandoned).toBeGreaterThan(0);
      expect(abandoned).toBeLessThanOrEqual(settings.concurrency);
      workers.push(startWebhookWorker({ db: t.db, settings }));
      await until(() => finished(runId), 60_000, 'the run to finish');
      expect(receiver.keys()).toEqual(keys);
      // Repeats only of what the dead worker had under way, and of attempts recorded as retried.
      const { unrecorded, unexplained } = await unexplainedArrivals(runId);
      expect(unexplained).toEqual([]);
      expect(unrecorded).toBeLessThanOrEqual(abandoned);
      expect(await states(runId)).toEqual({ succeeded: DELIVERIES });
    },
  );

  it(
    'a server process killed mid-run and started again completes the run; no key is missing',
    {
      timeout: 180_000,
    },
    async () => {
      receiver.fallback = { delayMs: 40, status: 200 };
      const env = {
        WEBHOOK_ALLOW_LOOPBACK: '1',
        WEBHOOK_CONCURRENCY: '4',
        WEBHOOK_POLL_MS: '100',
        WEBHOOK_TIMEOUT_MS: '2000',
      };
      const first = await startServerProcess(t.databaseUrl, { env });
      processes.push(first);
      const { runId, keys } = await bigRun(first);
      await receiver.waitFor(30);
      await stopServerProcess(first, 'SIGKILL');
      const before = receiver.arrivals.length;
      expect(before).toBeLessThan(DELIVERIES);
      const again = await startServerProcess(t.databaseUrl, { env });
      processes.push(again);
      await until(() => finished(runId), 90_000, 'the run to finish');
      await stopServerProcess(again);
      expect(receiver.keys()).toEqual(keys);
      // Repeats only of what the killed process had under way (at most its concurrency), and of attempts
      // recorded as retried (on a loaded machine an answer can come after the 2 s timeout).
      const { unrecorded, unexplained } = await unexplainedArrivals(runId);
      expect(unexplained).toEqual([]);
      expect(unrecorded).toBeLessThanOrEqual(4);
      expect(await states(runId)).toEqual({ succeeded: DELIVERIES });
    },
  );
});
