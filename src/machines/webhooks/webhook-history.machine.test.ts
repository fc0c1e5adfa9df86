import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import { createAppBus } from '../shared/app-bus';
import { deferred, fakeServer, flush, json, type Deferred, type SeenRequest } from '../test-support/fake-fetch';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  type GraphEvent,
  heldPromise,
  idleCallback,
} from '../test-support/graph-coverage';
import { shownRuns, webhookHistoryMachine, type WebhookDelivery } from './webhook-history.machine';
import type { WebhookRun } from './webhook-runs-live';

const tenantName = 'farmacia-central';
const run = (id: number, over: Partial<WebhookRun> = {}): WebhookRun => ({
  id,
  tenantName,
  type: 'delivered',
  startAt: '2026-11-01',
  finishAt: '2026-11-07',
  total: 4,
  pending: 0,
  succeeded: 3,
  failed: 1,
  cancelled: 0,
  created_at: '2026-11-08T12:00:00.000Z',
  created_by: { id: 1, name: 'Ana' },
  finished_at: '2026-11-08T12:01:00.000Z',
  ...over,
});
const delivery = (id: number, over: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id,
  run_id: 7,
  endpoint: { id: 3, url: 'https://erp.example.com.br/hook', deleted: false },
  type: 'delivered',
  message_id: 100 + id,
  idempotency_key: '9b2c6f5e-4a0e-4b8e-9d53-7f0f5b1d2c11',
  state: 'failed',
  attempts: 1,
  next_attempt_at: null,
  last_status_code: 500,
  last_error: 'http_status',
  created_at: '2026-11-08T12:00:00.000Z',
  completed_at: '2026-11-08T12:00:10.000Z',
  ...over,
});
const page = <T>(data: T[], next: string | null = null) => ({ data, next });
const unusedRest = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
}).rest;

describe('webhookHistoryMachine: model coverage', () => {
  const machine = webhookHistoryMachine.provide({
    actors: {
      loadAll: heldPromise(),
      loadDeliveries: heldPromise(),
      loadRuns: heldPromise(),
      loadDetail: heldPromise(),
      redeliver: heldPromise(),
      redeliverRun: heldPromise(),
      watchRuns: idleCallback(),
      runReader: idleCallback(),
    },
  });

  it('every state and transition of both regions is reached', async () => {
    const report = await exploreCoverage({
      machine,
      strategies: ['shortest', 'transitions'],
      input: () => ({ rest: unusedRest, search: `tenant=${tenantName}`, defaultTenant: 'backoffice' }),
      events: (snapshot): GraphEvent<typeof machine>[] => {
        const list = typeof snapshot.value === 'object' ? (snapshot.value as { list: string }).list : '';
        return [
          { type: 'history.location', search: `tenant=${tenantName}&state=failed` },
          { type: 'history.filter', patch: { type: 'read' } },
          { type: 'history.reload' },
          { type: 'history.moreRuns' },
          { type: 'history.moreDeliveries' },
          { type: 'history.open', id: 1 },
          { type: 'history.open', id: 2 },
          { type: 'history.close' },
          { type: 'history.redeliver', id: 1 },
          { type: 'history.redeliverFailed', runId: 7 },
          { type: 'history.dismissNotice' },
          { type: 'runs.progress', run: run(7, { pending: 1, finished_at: null }) },
          { type: 'runs.progress', run: run(9, { pending: 1, finished_at: null }) },
          { type: 'runs.answer', run: run(7), seq: 0 },
          { type: 'runs.reconnected' },
          ...events(list),
          doneEvent('loadDetail', { delivery: delivery(1), body: '{}', attempts: [] }),
          errorEvent('loadDetail', new ApiError(404, { message: 'Not found' })),
        ];
      },
      // What the guards read: the filters against the address, more pages, the open detail, the runs shown.
      serializeContext: (context) => [
        context.query.state,
        context.query.type,
        context.runsNext !== null,
        context.deliveriesNext !== null,
        context.detail?.id ?? null,
        context.runs.some((r) => r.id === 9),
      ],
    });
    assertFullCoverage(report);
    console.info(`webhookHistoryMachine: ${formatCoverage(report)}`);
  });

  function events(list: string) {
    const invoked = {
      loading: 'loadAll',
      refreshing: 'loadDeliveries',
      moreRuns: 'moreRuns',
      moreDeliveries: 'moreDeliveries',
      redelivering: 'redeliver',
      redeliveringRun: 'redeliverRun',
    }[list];
    if (!invoked) return [];
    const outputs: Record<string, unknown> = {
      loadAll: { runs: page([run(7)], 'r1'), deliveries: page([delivery(1)], 'd1'), endpoints: [] },
      loadDeliveries: page([delivery(2)]),
      moreRuns: page([run(6)]),
      moreDeliveries: page([delivery(3)]),
      redeliver: delivery(1, { state: 'pending' }),
      redeliverRun: { requeued: 1, skipped: 0 },
    };
    return [doneEvent(invoked, outputs[invoked]), errorEvent(invoked, new ApiError(503, null))];
  }
});

describe('webhookHistoryMachine: against the REST contract', () => {
  function setup(
    search: string,
    respond: (request: SeenRequest) => Response | Promise<Response> | undefined = () => undefined,
  ) {
    const bus = createAppBus();
    const server = fakeServer(async (request) => {
      const own = await respond(request);
      if (own) return own;
      switch (`${request.method} ${request.path}`) {
        case 'GET /api/webhooks/runs':
          return json(200, page([run(7, { pending: 2, failed: 0, succeeded: 2, finished_at: null })], 'r7'));
        case 'GET /api/webhooks/deliveries':
          return json(
            200,
            page([delivery(1), delivery(2, { state: 'succeeded', last_status_code: 200, last_error: null })], 'd2'),
          );
        case 'GET /api/webhooks/endpoints':
          return json(200, { data: [] });
        default:
          return json(404, { message: `no fake for ${request.path}` });
      }
    });
    const emitted: string[] = [];
    const actor = createActor(webhookHistoryMachine, {
      input: { rest: server.rest, search, defaultTenant: 'backoffice', bus },
    });
    actor.on('history.queryChanged', (event) => emitted.push(event.search));
    actor.start();
    const publish = (data: WebhookRun) =>
      bus.publish({ name: 'webhookRunProgress', data, tenantName: 'backoffice', sentAt: '2026-11-08T12:00:00Z' });
    return { server, actor, emitted, publish };
  }
  const lists = (seen: SeenRequest[], path: string) =>
    seen.filter((r) => r.path === path).map((r) => Object.fromEntries(r.query));

  it('reads runs, deliveries under the address filters and endpoints of the tenant; a filter rewrites the address', async () => {
    const { server, actor, emitted } = setup('tenant=farmacia-central&run=7&state=failed');
    await flush();
    expect(actor.getSnapshot().matches({ list: 'ready' })).toBe(true);
    expect(lists(server.seen, '/api/webhooks/deliveries')).toEqual([
      { tenantName, limit: '50', runId: '7', state: 'failed' },
    ]);
    expect(lists(server.seen, '/api/webhooks/runs')).toEqual([{ tenantName, limit: '50' }]);
    actor.send({ type: 'history.filter', patch: { state: null, type: 'read', endpoint: 3 } });
    expect(emitted).toEqual(['tenant=farmacia-central&run=7&endpoint=3&type=read']);
    await flush();
    expect(lists(server.seen, '/api/webhooks/deliveries').at(-1)).toEqual({
      tenantName,
      limit: '50',
      runId: '7',
      endpointId: '3',
      type: 'read',
    });
    actor.send({ type: 'history.moreDeliveries' });
    await flush();
    expect(lists(server.seen, '/api/webhooks/deliveries').at(-1)).toMatchObject({ after: 'd2' });
    actor.send({ type: 'history.moreRuns' });
    await flush();
    expect(lists(server.seen, '/api/webhooks/runs').at(-1)).toMatchObject({ after: 'r7' });
  });

  it("without a tenant in the address reads the session's; the address changing elsewhere reads it all again", async () => {
    const { server, actor } = setup('');
    await flush();
    expect(lists(server.seen, '/api/webhooks/runs')).toEqual([{ tenantName: 'backoffice', limit: '50' }]);
    actor.send({ type: 'history.location', search: '' });
    actor.send({ type: 'history.location', search: 'tenant=farmacia-central' });
    await flush();
    expect(lists(server.seen, '/api/webhooks/runs')).toEqual([
      { tenantName: 'backoffice', limit: '50' },
      { tenantName, limit: '50' },
    ]);
  });

  it("the socket's progress replaces a run's counters and reads its deliveries again", async () => {
    const { server, actor, publish } = setup('tenant=farmacia-central');
    await flush();
    publish(run(7, { pending: 0, failed: 1, succeeded: 3, finished_at: '2026-11-08T12:02:00.000Z' }));
    expect(shownRuns(actor.getSnapshot().context)[0]).toMatchObject({ pending: 0, failed: 1 });
    await flush();
    expect(lists(server.seen, '/api/webhooks/deliveries')).toHaveLength(2);
    // A run started after the page was read comes first.
    publish(run(8, { pending: 4, finished_at: null }));
    expect(shownRuns(actor.getSnapshot().context).map((r) => r.id)).toEqual([8, 7]);
    publish({ ...run(9), tenantName: 'another' });
    expect(shownRuns(actor.getSnapshot().context).map((r) => r.id)).toEqual([8, 7]);
  });

  it('redelivers one delivery and every failed one of a run, and words each refusal', async () => {
    let redeliver: Response = json(
      200,
      delivery(1, { state: 'pending', attempts: 1, next_attempt_at: '2026-11-08T12:05:00.000Z' }),
    );
    const held: Deferred<Response>[] = [];
    const { actor } = setup('tenant=farmacia-central', (request) => {
      if (request.path === '/api/webhooks/deliveries/1/redeliver') return redeliver;
      if (request.path === '/api/webhooks/runs/7/redeliver-failed') return json(200, { requeued: 3, skipped: 1 });
      if (request.path === '/api/webhooks/runs/7') {
        const d = deferred<Response>();
        held.push(d);
        return d.promise;
      }
      return undefined;
    });
    await flush();
    actor.send({ type: 'history.redeliver', id: 1 });
    await flush();
    expect(actor.getSnapshot().context.notice).toEqual({ kind: 'redelivered', id: 1 });
    expect(actor.getSnapshot().context.deliveries[0]?.state).toBe('pending');
    expect(held).toHaveLength(1);

    redeliver = json(409, { message: 'paused', error: 'webhook_endpoint_paused' });
    actor.send({ type: 'history.redeliver', id: 1 });
    await flush();
    expect(actor.getSnapshot().context.actionError).toEqual({
      target: 'delivery',
      id: 1,
      error: { key: 'webhooks.history.errors.redeliver', reason: 'webhooks.refusals.endpointPaused' },
    });
    redeliver = json(409, { message: 'busy', error: 'webhook_delivery_in_progress' });
    actor.send({ type: 'history.redeliver', id: 1 });
    await flush();
    expect(actor.getSnapshot().context.actionError?.error.reason).toBe('webhooks.refusals.deliveryInProgress');
    redeliver = json(409, { message: 'gone', error: 'webhook_endpoint_deleted' });
    actor.send({ type: 'history.redeliver', id: 1 });
    await flush();
    expect(actor.getSnapshot().context.actionError?.error.reason).toBe('webhooks.refusals.endpointDeleted');

    actor.send({ type: 'history.redeliverFailed', runId: 7 });
    await flush();
    await flush();
    expect(actor.getSnapshot().context.notice).toEqual({ kind: 'requeued', runId: 7, requeued: 3, skipped: 1 });
    expect(actor.getSnapshot().context.actionError).toBeNull();
    expect(held).toHaveLength(2);
    held[1]?.resolve(json(200, run(7, { pending: 3, failed: 0, finished_at: null })));
    await flush();
    expect(shownRuns(actor.getSnapshot().context)[0]).toMatchObject({ pending: 3, failed: 0 });
  });

  it("opens a delivery's detail, another one, and closes it", async () => {
    const { actor } = setup('tenant=farmacia-central', (request) =>
      request.path.startsWith('/api/webhooks/deliveries/')
        ? json(200, { delivery: delivery(Number(request.path.split('/').pop())), body: '{"a":1}', attempts: [] })
        : undefined,
    );
    await flush();
    actor.send({ type: 'history.open', id: 1 });
    await flush();
    expect(actor.getSnapshot().context.detail).toMatchObject({ id: 1, data: { body: '{"a":1}' } });
    actor.send({ type: 'history.open', id: 2 });
    await flush();
    expect(actor.getSnapshot().context.detail?.id).toBe(2);
    actor.send({ type: 'history.open', id: 2 });
    expect(actor.getSnapshot().context.detail).toBeNull();
  });
});

describe('webhookHistoryMachine: a filter before the first answer', () => {
  it('reads everything again with it, runs included', async () => {
    const seen: string[] = [];
    const server = fakeServer((request) => {
      seen.push(`${request.path}?${request.query.toString()}`);
      if (request.path === '/api/webhooks/endpoints') return json(200, { data: [] });
      return json(200, { data: [], next: null });
    });
    const actor = createActor(webhookHistoryMachine, {
      input: { rest: server.rest, search: 'tenant=farmacia-central', defaultTenant: 'backoffice' },
    }).start();
    actor.send({ type: 'history.filter', patch: { state: 'failed' } });
    await flush();
    expect(actor.getSnapshot().matches({ list: 'ready' })).toBe(true);
    expect(seen.filter((s) => s.startsWith('/api/webhooks/runs?'))).toHaveLength(2);
    expect(seen.filter((s) => s.startsWith('/api/webhooks/deliveries?')).at(-1)).toContain('state=failed');
  });
});
