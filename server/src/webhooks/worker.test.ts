import { loadConfig, type WebhookSettings } from '../base/config';
import type { PanelEvent } from '../base/events';
import { saoPauloDay } from '../db/analytics';
import { startTestApp, type TestApp } from '../test-support/app';
import { validateResponse } from '../test-support/contract';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { freePort } from '../test-support/processes';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver';
import { insertEndpoint, insertMessages, until } from '../test-support/webhooks';
import { newWebhookSecret } from './secrets';
import { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from './worker';

/**
 * The delivery worker against a real receiver (docs/webhooks.md): arrivals, signatures, the retry
 * schedule under a fake clock, what is not retried, the address guard at send time, runs' counters and
 * their socket progress. On PGlite and PostgreSQL; several workers and processes:
 * server/src/webhooks/worker.postgres.test.ts.
 */
const ok = { valid: true, errors: [] };
const qs = (query: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();

describe.each([
  ['PGlite', false],
  ['PostgreSQL', true],
])('webhook worker on %s', (_label, postgres) => {
  let cluster: ThrowawayPostgres | undefined;
  let t: TestApp;
  let admin: { authorization: string };
  let tenant: { id: number; name: string };
  let receiver: WebhookReceiver;
  let settings: WebhookSettings;
  let day = 0;
  const workers: WebhookWorker[] = [];

  beforeAll(async () => {
    if (postgres) cluster = await startThrowawayPostgres();
    settings = {
      ...loadConfig().webhooks,
      worker: false,
      allowLoopback: true,
      timeoutMs: 1_000,
      retryBaseMs: 1_000,
      retryMaxMs: 60_000,
      maxAttempts: 4,
      pollMs: 50,
    };
    t = await startTestApp({
      ...(cluster ? { databaseUrl: cluster.url } : {}),
      seed: { days: 1 },
      config: { webhooks: settings },
    });
    admin = await t.auth('admin@demo.local');
    tenant = await t.db
      .selectFrom('tenants')
      .select(['id', 'name'])
      .where('name', '=', 'farmacia-central')
      .executeTakeFirstOrThrow();
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    // Each test on its own day and its own endpoints: earlier tests' rows match nothing.
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

  const start = (options: Partial<WebhookWorkerOptions> = {}) => {
    const worker = startWebhookWorker({ db: t.db, settings, progress: t.app.webhookProgress, ...options });
    workers.push(worker);
    return worker;
  };

  /** Noon in São Paulo `day` days before today: the test's messages, and the range it generates. */
  const testDay = () => {
    const at = new Date(Date.now() - (10 + day) * 86_400_000);
    const date = saoPauloDay(at);
    return { at: new Date(`${date}T15:00:00Z`), date };
  };

  async function generate(date: string, type = 'delivered', as = admin) {
    return t.app.fastify.inject({
      url: `/api/tenant/generate-campaign-status-webhook?${qs({ tenantName: tenant.name, startAt: date, finishAt: date, type })}`,
      headers: as,
    });
  }

  async function deliveriesOf(runId: number) {
    return t.db.selectFrom('webhook_deliveries').selectAll().where('run_id', '=', runId).orderBy('id').execute();
  }

  async function attemptsOf(deliveryId: number) {
    return t.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', '=', deliveryId)
      .orderBy('number')
      .execute();
  }

  async function finished(runId: number) {
    const run = await t.db
      .selectFrom('webhook_runs')
      .select('finished_at')
      .where('id', '=', runId)
      .executeTakeFirstOrThrow();
    return run.finished_at !== null;
  }

  /** A run of `messages` messages to one new endpoint at the receiver. */
  async function oneRun(messages: number, endpoint: Partial<Parameters<typeof insertEndpoint>[1]> = {}) {
    const { at, date } = testDay();
    const created = await insertEndpoint(t.db, { tenantId: tenant.id, url: receiver.url, ...endpoint });
    receiver.secrets = [created.secret];
    await insertMessages(t.db, { tenantId: tenant.id, count: messages, at });
    const response = await generate(date);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ deliveries: number; deliveryId: number }>();
    expect(body.deliveries).toBe(messages);
    return { runId: body.deliveryId, endpoint: created };
  }

  it('sends each delivery once, signed, with its stored body; the run finishes with its counters', async () => {
    const published: PanelEvent[] = [];
    const unsubscribe = t.app.events.subscribe((event) => {
      if (event.event === 'WebhookRunProgress') published.push(event);
    });
    try {
      const { runId } = await oneRun(3);
      start();
      await until(() => finished(runId), 20_000, 'the run to finish');
      const deliveries = await deliveriesOf(runId);
      expect(deliveries.map((d) => d.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
      expect(receiver.arrivals).toHaveLength(3);
      expect(receiver.keys()).toEqual(new Set(deliveries.map((d) => d.idempotency_key)));
      for (const arrival of receiver.arrivals) {
        const delivery = deliveries.find((d) => d.idempotency_key === arrival.id)!;
        expect(arrival.verified).toEqual([true]);
        expect(arrival.body).toBe(delivery.body);
        expect(arrival.attempt).toBe(1);
        expect(arrival.headers['content-type']).toBe('application/json');
        expect(arrival.headers['user-agent']).toMatch(/Webhooks/);
        expect(arrival.signature).toMatch(new RegExp(`^t=${String(arrival.timestamp)},v1=[0-9a-f]{64}$`));
        const body = JSON.parse(arrival.body) as Record<string, unknown> & { data: Record<string, unknown> };
        expect(body).toMatchObject({ id: arrival.id, type: 'campaign.message.delivered', tenant: tenant.name });
        expect(body.data).toMatchObject({ message_id: delivery.message_id, status: 'delivered' });
        expect(body.data.recipient).toMatch(/^\+55 11 9\*{4}-\d{4}$/);
        expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'tenant', 'data']);
        const [attempt] = await attemptsOf(delivery.id);
        expect(attempt).toMatchObject({
          number: 1,
          status_code: 200,
          error: null,
          response_excerpt: 'ok',
          retry_at: null,
        });
      }
      const run = await t.app.fastify.inject({ url: `/api/webhooks/runs/${String(runId)}`, headers: admin });
      expect(run.statusCode).toBe(200);
      expect(validateResponse('webhookRunGet', 200, run.json())).toEqual(ok);
      expect(run.json()).toMatchObject({ total: 3, pending: 0, succeeded: 3, failed: 0, cancelled: 0 });
      // Progress: published to the run's tenant and to the back-office tenant; the last one is the final.
      await until(
        () => published.some((e) => (e.data as { finished_at: string | null }).finished_at !== null),
        5_000,
        'the final progress event',
      );
      const final = published.filter((e) => e.tenantId === tenant.id).at(-1)!;
      expect(validateResponse('webhookRunGet', 200, final.data)).toEqual(ok);
      expect(final.data).toMatchObject({ id: runId, succeeded: 3, pending: 0 });
      expect(new Set(published.map((e) => e.tenantName))).toEqual(new Set([tenant.name, 'backoffice']));
    } finally {
      unsubscribe();
    }
  });

  it('signs with the current and the previous secret during a rotation, with the current one after it', async () => {
    const previous = newWebhookSecret();
    const { runId, endpoint } = await oneRun(1, {
      previous: { secret: previous, expiresAt: new Date(Date.now() + 3_600_000) },
    });
    receiver.secrets = [endpoint.secret, previous];
    start();
    await until(() => finished(runId), 20_000, 'the run to finish');
    expect(receiver.arrivals).toHaveLength(1);
    expect(receiver.arrivals[0]!.signature.match(/v1=/g)).toHaveLength(2);
    expect(receiver.arrivals[0]!.verified).toEqual([true, true]);

    // The grace period over: the previous secret no longer signs.
    await t.db
      .updateTable('webhook_endpoints')
      .set({ previous_secret_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', endpoint.id)
      .execute();
    const [delivery] = await deliveriesOf(runId);
    const again = await t.app.fastify.inject({
      method: 'POST',
      url: `/api/webhooks/deliveries/${String(delivery!.id)}/redeliver`,
      headers: admin,
    });
    expect(again.statusCode).toBe(200);
    await receiver.waitFor(2);
    expect(receiver.arrivals[1]!.id).toBe(receiver.arrivals[0]!.id);
    expect(receiver.arrivals[1]!.attempt).toBe(2);
    expect(receiver.arrivals[1]!.verified).toEqual([true, false]);
  });

  /** A fake clock: attempts happen at the times the test sets, the retry times follow from them. */
  function fakeClock(startMs: number) {
    let nowMs = startMs;
    return { now: () => new Date(nowMs), set: (ms: number) => void (nowMs = ms) };
  }

  it('retries 500, 500 then succeeds, at the back-off the clock and the jitter give', async () => {
    const { runId } = await oneRun(1);
    receiver.plan({ status: 500, body: 'boom' }, { status: 500, body: 'boom' });
    const t0 = Date.now() + 60_000;
    const clock = fakeClock(t0);
    const worker = start({ now: clock.now, random: () => 0.5 });
    const [delivery] = await deliveriesOf(runId);
    const attempts = async (n: number) => (await attemptsOf(delivery!.id)).length >= n;
    await until(() => attempts(1), 10_000, 'attempt 1');
    // Attempt 1 failed: retry at t0 + 0.5 × min(max, base × 2^0).
    await until(async () => (await deliveriesOf(runId))[0]!.state === 'pending');
    expect((await deliveriesOf(runId))[0]!.next_attempt_at?.getTime()).toBe(t0 + 500);
    clock.set(t0 + 500);
    worker.nudge();
    await until(() => attempts(2), 10_000, 'attempt 2');
    await until(async () => (await deliveriesOf(runId))[0]!.state === 'pending');
    expect((await deliveriesOf(runId))[0]!.next_attempt_at?.getTime()).toBe(t0 + 500 + 1000);
    clock.set(t0 + 1500);
    worker.nudge();
    await until(() => finished(runId), 10_000, 'the run to finish');
    const rows = await attemptsOf(delivery!.id);
    expect(
      rows.map((a) => [a.number, a.started_at.getTime(), a.status_code, a.error, a.retry_at?.getTime() ?? null]),
    ).toEqual([
      [1, t0, 500, 'http_status', t0 + 500],
      [2, t0 + 500, 500, 'http_status', t0 + 1500],
      [3, t0 + 1500, 200, null, null],
    ]);
    expect(rows[0]!.response_excerpt).toBe('boom');
    expect(receiver.arrivals.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(receiver.keys().size).toBe(1);
    expect((await deliveriesOf(runId))[0]).toMatchObject({ state: 'succeeded', attempts: 3, last_status_code: 200 });
  });

  it("honours a 429's Retry-After, capped by the longest retry", async () => {
    const { runId } = await oneRun(1);
    receiver.plan(
      { status: 429, headers: { 'retry-after': '7' } },
      { status: 429, headers: { 'retry-after': '86400' } },
    );
    const t0 = Date.now() + 60_000;
    const clock = fakeClock(t0);
    const worker = start({ now: clock.now, random: () => 0.5 });
    const [delivery] = await deliveriesOf(runId);
    await until(
      async () => (await deliveriesOf(runId))[0]!.next_attempt_at?.getTime() === t0 + 7000,
      10_000,
      'retry 1',
    );
    expect((await attemptsOf(delivery!.id))[0]).toMatchObject({ status_code: 429, error: 'too_many_requests' });
    clock.set(t0 + 7000);
    worker.nudge();
    // 86,400 s asked; WEBHOOK_RETRY_MAX_MS (60 s here) given.
    await until(
      async () => (await deliveriesOf(runId))[0]!.next_attempt_at?.getTime() === t0 + 7000 + 60_000,
      10_000,
      'retry 2',
    );
    clock.set(t0 + 67_000);
    worker.nudge();
    await until(() => finished(runId), 10_000, 'the run to finish');
    expect((await deliveriesOf(runId))[0]).toMatchObject({ state: 'succeeded', attempts: 3 });
  });

  it.each([
    [{ status: 400, body: 'bad' }, 'http_status', 400],
    [{ status: 301, headers: { location: 'http://127.0.0.1:1/elsewhere' } }, 'redirect', 301],
  ] as const)('gives up at once on %o (%s), a redirect not followed', async (answer, error, status) => {
    const { runId } = await oneRun(1);
    receiver.plan(answer);
    start();
    await until(() => finished(runId), 10_000, 'the run to finish');
    const [delivery] = await deliveriesOf(runId);
    expect(delivery).toMatchObject({ state: 'failed', attempts: 1, last_status_code: status, last_error: error });
    expect(await attemptsOf(delivery!.id)).toHaveLength(1);
    expect(receiver.arrivals).toHaveLength(1);
  });

  it('records a receiver that does not answer in time as a timeout, and retries it', async () => {
    const { runId } = await oneRun(1);
    receiver.plan({ hang: true });
    start({ random: () => 0 });
    await until(() => finished(runId), 15_000, 'the run to finish');
    const [delivery] = await deliveriesOf(runId);
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts.map((a) => a.error)).toEqual(['timeout', null]);
    expect(attempts[0]!.duration_ms).toBeGreaterThanOrEqual(settings.timeoutMs - 50);
    expect(delivery).toMatchObject({ state: 'succeeded', attempts: 2 });
  });

  it('records a closed socket and a receiver gone as connection failures, and fails after the last attempt', async () => {
    receiver.plan({ close: true });
    const { runId } = await oneRun(1);
    // The receiver goes away after its first request: nothing listens on the port any more.
    const t0 = Date.now() + 60_000;
    const clock = fakeClock(t0);
    const worker = start({ now: clock.now, random: () => 1 - Number.EPSILON });
    const [delivery] = await deliveriesOf(runId);
    await until(async () => (await attemptsOf(delivery!.id)).length === 1, 10_000, 'attempt 1');
    await receiver.close();
    receiver = await startWebhookReceiver();
    for (let n = 2; n <= settings.maxAttempts; n += 1) {
      await until(async () => (await deliveriesOf(runId))[0]!.state !== 'sending');
      const due = (await deliveriesOf(runId))[0]!.next_attempt_at!.getTime();
      clock.set(due);
      worker.nudge();
      await until(async () => (await attemptsOf(delivery!.id)).length === n, 10_000, `attempt ${String(n)}`);
    }
    await until(() => finished(runId), 10_000, 'the run to finish');
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts.map((a) => a.error)).toEqual(['connection', 'connection', 'connection', 'connection']);
    expect(attempts.at(-1)!.retry_at).toBeNull();
    expect((await deliveriesOf(runId))[0]).toMatchObject({ state: 'failed', attempts: 4, last_error: 'connection' });
    const run = await t.app.fastify.inject({ url: `/api/webhooks/runs/${String(runId)}`, headers: admin });
    expect(run.json()).toMatchObject({ failed: 1, pending: 0 });

    // Sent again (the receiver back at a new address): a new series, retried again, the count going on.
    await t.db
      .updateTable('webhook_endpoints')
      .set({ url: receiver.url })
      .where('id', '=', delivery!.endpoint_id)
      .execute();
    receiver.plan({ status: 503 });
    const again = await t.app.fastify.inject({
      method: 'POST',
      url: `/api/webhooks/deliveries/${String(delivery!.id)}/redeliver`,
      headers: admin,
    });
    expect(again.statusCode).toBe(200);
    // Queued at the database's now(), in microseconds: the clock just past it.
    const queuedAt = await t.db
      .selectFrom('webhook_deliveries')
      .select('next_attempt_at')
      .where('id', '=', delivery!.id)
      .executeTakeFirstOrThrow();
    clock.set(queuedAt.next_attempt_at!.getTime() + 1);
    worker.nudge();
    await until(async () => (await attemptsOf(delivery!.id)).length === 5, 10_000, 'attempt 5');
    await until(async () => (await deliveriesOf(runId))[0]!.state === 'pending', 10_000, 'the retry of attempt 5');
    clock.set((await deliveriesOf(runId))[0]!.next_attempt_at!.getTime());
    worker.nudge();
    await until(() => finished(runId), 10_000, 'the run to finish again');
    expect((await deliveriesOf(runId))[0]).toMatchObject({ state: 'succeeded', attempts: 6 });
    expect(receiver.arrivals.map((a) => a.attempt)).toEqual([5, 6]);
  });

  it('refuses private, link-local and loopback addresses at send time, and names resolving to them', async () => {
    const port = await freePort();
    const urls = [
      'https://10.0.0.1/hooks',
      'https://169.254.169.254/latest/meta-data',
      `https://[::1]:${String(port)}/hooks`,
      `http://127.0.0.1:${String(receiver.port)}/hooks`,
      'https://hooks.farmacia.example/painel',
    ];
    const { at, date } = testDay();
    for (const url of urls) await insertEndpoint(t.db, { tenantId: tenant.id, url });
    await insertMessages(t.db, { tenantId: tenant.id, count: 1, at });
    const response = await generate(date);
    const runId = response.json<{ deliveryId: number }>().deliveryId;
    const resolved: string[] = [];
    start({
      settings: { ...settings, allowLoopback: false },
      resolve: (host, callback) => {
        resolved.push(host);
        callback(null, [{ address: '127.0.0.1', family: 4 }]);
      },
    });
    await until(() => finished(runId), 10_000, 'the run to finish');
    const deliveries = await deliveriesOf(runId);
    expect(deliveries.map((d) => [d.state, d.attempts, d.last_error])).toEqual(
      urls.map(() => ['failed', 1, 'address_refused']),
    );
    expect(resolved).toEqual(['hooks.farmacia.example']);
    expect(receiver.arrivals).toHaveLength(0);
  });

  it("leaves a paused endpoint's deliveries pending and cancels a deleted endpoint's", async () => {
    const { at, date } = testDay();
    const active = await insertEndpoint(t.db, { tenantId: tenant.id, url: receiver.url });
    const paused = await insertEndpoint(t.db, { tenantId: tenant.id, url: `${receiver.url}/paused` });
    const doomed = await insertEndpoint(t.db, { tenantId: tenant.id, url: `${receiver.url}/doomed` });
    await insertMessages(t.db, { tenantId: tenant.id, count: 1, at });
    const runId = (await generate(date)).json<{ deliveryId: number }>().deliveryId;
    await t.db.updateTable('webhook_endpoints').set({ active: false }).where('id', '=', paused.id).execute();
    await t.db.updateTable('webhook_endpoints').set({ deleted_at: new Date() }).where('id', '=', doomed.id).execute();
    start();
    const byEndpoint = async () => new Map((await deliveriesOf(runId)).map((d) => [d.endpoint_id, d]));
    await until(
      async () => {
        const rows = await byEndpoint();
        return rows.get(active.id)?.state === 'succeeded' && rows.get(doomed.id)?.state === 'cancelled';
      },
      10_000,
      'the active one sent and the deleted one cancelled',
    );
    const rows = await byEndpoint();
    expect(rows.get(paused.id)).toMatchObject({ state: 'pending', attempts: 0 });
    expect(rows.get(doomed.id)).toMatchObject({ attempts: 0 });
    expect(receiver.arrivals).toHaveLength(1);
    expect(await finished(runId)).toBe(false);
    // Resumed: sent, and the run finishes.
    await t.db.updateTable('webhook_endpoints').set({ active: true }).where('id', '=', paused.id).execute();
    workers[0]!.nudge();
    await until(() => finished(runId), 10_000, 'the run to finish');
    const run = await t.app.fastify.inject({ url: `/api/webhooks/runs/${String(runId)}`, headers: admin });
    expect(run.json()).toMatchObject({ total: 3, succeeded: 2, cancelled: 1, pending: 0 });
  });

  it('never sends a delivery unsigned: a secret that does not open leaves it waiting, no attempt counted', async () => {
    const { runId, endpoint } = await oneRun(1);
    // A value sealed for another endpoint's row does not open for this one (server/src/webhooks/secrets.ts).
    const other = await insertEndpoint(t.db, { tenantId: tenant.id, url: `${receiver.url}/other` });
    const sealed = await t.db
      .selectFrom('webhook_endpoints')
      .select('secret')
      .where('id', '=', other.id)
      .executeTakeFirstOrThrow();
    await t.db.updateTable('webhook_endpoints').set({ secret: sealed.secret }).where('id', '=', endpoint.id).execute();
    start();
    await until(
      async () => ((await deliveriesOf(runId))[0]?.next_attempt_at?.getTime() ?? 0) > Date.now() + 30_000,
      10_000,
      'the delivery put back to wait',
    );
    const [delivery] = await deliveriesOf(runId);
    expect(delivery).toMatchObject({ state: 'pending', attempts: 0, last_status_code: null });
    expect(await attemptsOf(delivery!.id)).toEqual([]);
    expect(receiver.arrivals).toEqual([]);
  });

  it("parks a paused endpoint's waiting deliveries out of the queue and sends them once resumed (REST pause and resume)", async () => {
    const { runId, endpoint } = await oneRun(2);
    const put = (active: boolean) =>
      t.app.fastify.inject({
        method: 'PUT',
        url: `/api/webhooks/endpoints/${String(endpoint.id)}`,
        headers: admin,
        payload: { active },
      });
    expect((await put(false)).statusCode).toBe(200);
    expect((await deliveriesOf(runId)).map((d) => [d.state, d.parked])).toEqual([
      ['pending', true],
      ['pending', true],
    ]);
    expect((await put(true)).statusCode).toBe(200);
    expect((await deliveriesOf(runId)).map((d) => d.parked)).toEqual([false, false]);
    start();
    await until(() => finished(runId), 10_000, 'the run to finish once resumed');
    expect(new Set(receiver.arrivals.map((a) => a.id)).size).toBe(2);
  });
});
