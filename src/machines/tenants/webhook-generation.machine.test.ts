import fc from 'fast-check';
import { createActor, fromCallback } from 'xstate';
import { createAppBus } from '../shared/app-bus';
import type { SocketActor } from '../realtime/socket.machine';
import { ApiError } from '../../api/api-error';
import type { RestClient } from '../../api/rest-client';
import { bulkActor } from '../shared/bulk-run';
import {
  assertFullCoverage,
  exploreCoverage,
  formatCoverage,
  idleCallback,
  type PathStrategy,
} from '../test-support/graph-coverage';
import { deferred, fakeServer, flush, json, type Deferred } from '../test-support/fake-fetch';
import { expectOverlayRestored, fakeOverlay, type FakeOverlay } from '../test-support/fake-overlay';
import {
  webhookGenerationMachine,
  webhookProgress,
  webhookRequestProblem,
  startedRunIds,
  type CampaignStatusType,
  type WebhookGenerationResult,
  type WebhookRequest,
} from './webhook-generation.machine';
import type { WebhookRun } from '../webhooks/webhook-runs-live';

const tenantName = 'farmacia-central';
const range = { startAt: '2026-11-01', finishAt: '2026-11-07' };
const answer = (type: CampaignStatusType, deliveries = 3): WebhookGenerationResult => ({
  tenantName,
  type,
  ...range,
  deliveries,
  deliveryId: 7,
});
const runOf = (id: number, pending: number): WebhookRun => ({
  id,
  tenantName,
  type: 'sent',
  ...range,
  total: 3,
  pending,
  succeeded: 3 - pending,
  failed: 0,
  cancelled: 0,
  created_at: '2026-11-08T12:00:00.000Z',
  created_by: { id: 1, name: 'Ana' },
  finished_at: pending === 0 ? '2026-11-08T12:01:00.000Z' : null,
});
const unusedRest = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
}).rest;

describe('webhookGenerationMachine: model coverage', () => {
  const machine = webhookGenerationMachine.provide({
    actors: { generateWebhooks: idleCallback(), watchRuns: idleCallback(), runReader: idleCallback() },
  });

  function explore(types: CampaignStatusType[], strategies: PathStrategy[]) {
    return exploreCoverage({
      machine,
      strategies,
      input: () => ({ rest: unusedRest, tenantName, overlay: fakeOverlay() }),
      events: (snapshot) => {
        const { run } = snapshot.context;
        const results = run.entries.flatMap((entry, index) =>
          entry.result === null
            ? [
                {
                  type: 'bulk.result' as const,
                  index,
                  result: { status: 'ok' as const, value: answer(entry.item.type) },
                },
                {
                  type: 'bulk.result' as const,
                  index,
                  result: { status: 'failed' as const, reason: 'apiErrors.server' as const },
                },
              ]
            : [],
        );
        const allReported = run.entries.length > 0 && run.entries.every((entry) => entry.result !== null);
        const started = run.entries.some((entry) => entry.result?.status === 'ok');
        return [
          ...(started
            ? [
                { type: 'runs.progress' as const, run: runOf(7, 1) },
                { type: 'runs.answer' as const, run: runOf(7, 0), seq: 0 },
                { type: 'runs.reconnected' as const },
              ]
            : []),
          ...types.map((webhookType) => ({ type: 'webhooks.toggleType' as const, webhookType })),
          { type: 'webhooks.range', ...range },
          { type: 'webhooks.generate' },
          { type: 'webhooks.cancel' },
          { type: 'webhooks.retry' },
          { type: 'webhooks.dismiss' },
          ...results,
          ...(allReported ? [{ type: 'bulk.finished' as const }] : []),
        ];
      },
      serializeContext: (context) => [
        context.selected,
        context.startAt,
        context.invalid,
        context.run.entries.map((entry) => entry.result?.status ?? null),
        Object.values(context.live.runs).map((r) => r.pending),
      ],
      onStep: ({ actor, input }) => {
        expectOverlayRestored(input?.overlay as FakeOverlay, actor.getSnapshot().matches('running'));
      },
    });
  }

  it('shortest paths and one path per edge, over two types, reach every state and transition', async () => {
    const report = await explore(['sent', 'read'], ['shortest', 'transitions']);
    assertFullCoverage(report);
    console.info(`webhookGenerationMachine (shortest + edges): ${formatCoverage(report)}`);
  });

  it('shortest, simple and per-edge paths, over one type, reach every state and transition', async () => {
    const report = await explore(['delivered'], ['shortest', 'simple', 'transitions']);
    assertFullCoverage(report);
    console.info(`webhookGenerationMachine (all strategies): ${formatCoverage(report)}`);
  });
});

describe('webhookGenerationMachine: against the REST contract', () => {
  function setup(respond?: (type: CampaignStatusType) => Response) {
    const held: Deferred<Response>[] = [];
    const server = fakeServer((request) => {
      if (request.path.startsWith('/api/webhooks/runs/'))
        return json(200, runOf(Number(request.path.split('/').pop()), 2));
      const type = request.query.get('type') as CampaignStatusType;
      if (respond) return respond(type);
      const d = deferred<Response>();
      held.push(d);
      return d.promise;
    });
    const overlay = fakeOverlay();
    const actor = createActor(webhookGenerationMachine, {
      input: { rest: server.rest, tenantName, overlay, concurrency: 2, ...range },
    }).start();
    const generations = () => server.seen.filter((r) => r.path === '/api/tenant/generate-campaign-status-webhook');
    return { server, actor, overlay, held, generations };
  }

  it('refuses to generate without a type or with a reversed range, with a reason key', () => {
    const { actor, server } = setup();
    actor.send({ type: 'webhooks.generate' });
    expect(actor.getSnapshot().context.invalid).toBe('webhooks.errors.noType');
    actor.send({ type: 'webhooks.toggleType', webhookType: 'read' });
    actor.send({ type: 'webhooks.range', startAt: '2026-11-08', finishAt: '2026-11-07' });
    actor.send({ type: 'webhooks.generate' });
    expect(actor.getSnapshot().context.invalid).toBe('webhooks.errors.range');
    expect(actor.getSnapshot().value).toBe('editing');
    expect(server.seen).toHaveLength(0);
    expect(webhookRequestProblem({ selected: ['read'], startAt: '2026-11-01', finishAt: 'x' })).toBe(
      'webhooks.errors.range',
    );
  });

  it('sends one GET per selected type, in contract order, within the bound, then reports deliveries', async () => {
    const { actor, server, held, overlay } = setup();
    for (const webhookType of ['replied', 'sent', 'failed'] as const)
      actor.send({ type: 'webhooks.toggleType', webhookType });
    actor.send({ type: 'webhooks.generate' });
    await flush();
    expect(overlay.held).toBe(true);
    expect(server.seen.map((r) => [r.method, r.path, Object.fromEntries(r.query)])).toEqual([
      ['GET', '/api/tenant/generate-campaign-status-webhook', { tenantName, ...range, type: 'sent' }],
      ['GET', '/api/tenant/generate-campaign-status-webhook', { tenantName, ...range, type: 'failed' }],
    ]);
    held[0]?.resolve(json(200, answer('sent', 12)));
    await flush();
    expect(server.seen).toHaveLength(3);
    expect(webhookProgress(actor.getSnapshot())).toEqual({ done: 1, failed: 0, total: 3 });
    held[1]?.resolve(json(200, answer('failed', 0)));
    held[2]?.resolve(json(200, answer('replied', 4)));
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('done');
    expect(snapshot.context.run.outcome).toBe('success');
    expect(snapshot.context.run.entries.map((e) => e.result?.status === 'ok' && e.result.value.deliveries)).toEqual([
      12, 0, 4,
    ]);
    expect(overlay.calls).toEqual(['suspend', 'resume']);
  });

  it('lists failed types and retries only those; all failing is the error outcome', async () => {
    let failing = new Set<CampaignStatusType>(['read', 'delivered']);
    const { actor, generations, overlay } = setup((type) =>
      failing.has(type) ? json(500, { message: 'boom' }) : json(200, answer(type)),
    );
    for (const webhookType of ['delivered', 'read', 'sent'] as const)
      actor.send({ type: 'webhooks.toggleType', webhookType });
    actor.send({ type: 'webhooks.generate' });
    await flush();
    expect(actor.getSnapshot().context.run.outcome).toBe('partial');
    failing = new Set(['read', 'delivered']);
    actor.send({ type: 'webhooks.retry' });
    await flush();
    expect(
      generations()
        .slice(3)
        .map((r) => r.query.get('type')),
    ).toEqual(['delivered', 'read']);
    expect(actor.getSnapshot().context.run.outcome).toBe('error');
    failing = new Set();
    actor.send({ type: 'webhooks.retry' });
    await flush();
    expect(
      generations()
        .slice(5)
        .map((r) => r.query.get('type')),
    ).toEqual(['delivered', 'read']);
    expect(actor.getSnapshot().context.run.outcome).toBe('success');
    expect(actor.getSnapshot().can({ type: 'webhooks.retry' })).toBe(false);
    expect(overlay.calls).toEqual(['suspend', 'resume', 'suspend', 'resume', 'suspend', 'resume']);
  });

  it('cancel aborts what is in flight and lists the rest as failed (cancelled); dismiss goes back to editing', async () => {
    const { actor, server, overlay } = setup();
    for (const webhookType of ['sent', 'read', 'replied'] as const)
      actor.send({ type: 'webhooks.toggleType', webhookType });
    actor.send({ type: 'webhooks.generate' });
    await flush();
    actor.send({ type: 'webhooks.cancel' });
    expect(server.seen.every((r) => r.signal.aborted)).toBe(true);
    expect(actor.getSnapshot().context.run.entries.map((e) => e.result)).toEqual(
      Array.from({ length: 3 }, () => ({ status: 'failed', reason: 'apiErrors.cancelled' })),
    );
    expect(overlay.held).toBe(false);
    actor.send({ type: 'webhooks.dismiss' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.run.entries).toEqual([]);
  });
});

describe('webhookGenerationMachine: the runs it started, live', () => {
  function setup() {
    const bus = createAppBus();
    const reads: Deferred<Response>[] = [];
    const server = fakeServer((request) => {
      if (request.path.startsWith('/api/webhooks/runs/')) {
        const d = deferred<Response>();
        reads.push(d);
        return d.promise;
      }
      const type = request.query.get('type') as CampaignStatusType;
      if (type === 'read') return json(409, { message: 'no endpoint', error: 'webhook_no_endpoint' });
      return json(200, { ...answer(type), deliveryId: type === 'sent' ? 7 : 8 });
    });
    const socket = createActor(fromCallback(() => undefined)) as unknown as SocketActor;
    const listeners: (() => void)[] = [];
    (socket as unknown as { on: unknown }).on = (_: string, handler: () => void) => {
      listeners.push(handler);
      return { unsubscribe: () => undefined };
    };
    const actor = createActor(webhookGenerationMachine, {
      input: { rest: server.rest, tenantName, overlay: fakeOverlay(), bus, socket, ...range },
    }).start();
    const publish = (run: WebhookRun, tenant = tenantName) =>
      bus.publish({ name: 'webhookRunProgress', data: run, tenantName: tenant, sentAt: '2026-11-08T12:00:00Z' });
    const runReads = () => server.seen.filter((r) => r.path.startsWith('/api/webhooks/runs/')).map((r) => r.path);
    return { actor, publish, reads, runReads, reconnect: () => listeners.forEach((l) => l()) };
  }

  it("reads each started run once generated, takes the socket's news over an older read, and says why a type found no endpoint", async () => {
    const { actor, publish, reads, runReads } = setup();
    for (const webhookType of ['sent', 'delivered', 'read'] as const)
      actor.send({ type: 'webhooks.toggleType', webhookType });
    actor.send({ type: 'webhooks.generate' });
    await flush();
    await flush();
    expect(actor.getSnapshot().value).toBe('done');
    const reasons = actor
      .getSnapshot()
      .context.run.entries.map((e) => (e.result?.status === 'failed' ? e.result.reason : 'ok'));
    expect(reasons).toEqual(['ok', 'ok', 'webhooks.refusals.noEndpoint']);
    expect(startedRunIds(actor.getSnapshot().context)).toEqual([7, 8]);
    expect(runReads()).toEqual(['/api/webhooks/runs/7', '/api/webhooks/runs/8']);
    // News of run 7 arrives while its read is out: the read's older answer is dropped.
    publish(runOf(7, 1));
    publish({ ...runOf(99, 1) });
    // Another tenant's run with the same id (the envelope is the connection's; the run names its tenant).
    publish({ ...runOf(7, 0), tenantName: 'another-tenant' });
    reads[0]?.resolve(json(200, runOf(7, 3)));
    reads[1]?.resolve(json(200, { ...runOf(8, 2), id: 8 }));
    await flush();
    const live = actor.getSnapshot().context.live.runs;
    expect(live[7]?.pending).toBe(1);
    expect(live[8]?.pending).toBe(2);
    expect(live[99]).toBeUndefined();
  });

  it('after a reconnect reads again only the runs not known to have finished', async () => {
    const { actor, publish, reads, runReads, reconnect } = setup();
    for (const webhookType of ['sent', 'delivered'] as const) actor.send({ type: 'webhooks.toggleType', webhookType });
    actor.send({ type: 'webhooks.generate' });
    await flush();
    await flush();
    for (const read of reads) read.resolve(json(200, runOf(7, 3)));
    await flush();
    publish(runOf(7, 0));
    publish({ ...runOf(8, 1), id: 8 });
    reconnect();
    await flush();
    expect(runReads()).toEqual(['/api/webhooks/runs/7', '/api/webhooks/runs/8', '/api/webhooks/runs/8']);
  });
});

describe('webhookGenerationMachine: the overlay comes back in every outcome', () => {
  it('success, partial failure, error, cancel, stop mid-run, and retries (1000 runs)', async () => {
    const types = ['sent', 'delivered', 'read', 'failed', 'replied'] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.subarray([...types], { minLength: 1 }),
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        fc.nat(5),
        fc.constantFrom('finish', 'cancel', 'stop', 'retry'),
        async (s, selected, oks, settleFirst, end) => {
          const overlay = fakeOverlay();
          const machine = webhookGenerationMachine.provide({
            actors: {
              generateWebhooks: bulkActor<
                { rest: RestClient; tenantName: string },
                WebhookRequest,
                WebhookGenerationResult
              >(async (_, request) => {
                await s.schedule(Promise.resolve(), request.type);
                if (!oks[types.indexOf(request.type)]) throw new ApiError(500, null);
                return answer(request.type);
              }),
            },
          });
          const actor = createActor(machine, {
            input: { rest: unusedRest, tenantName, overlay, concurrency: 2, ...range },
          }).start();
          const drain = async () => {
            do {
              await s.waitAll();
              await flush();
            } while (s.count() > 0);
          };
          for (const webhookType of selected) actor.send({ type: 'webhooks.toggleType', webhookType });
          actor.send({ type: 'webhooks.generate' });
          await flush();
          for (let i = 0; i < settleFirst && s.count() > 0; i += 1) {
            await s.waitOne();
            expect(overlay.held).toBe(actor.getSnapshot().matches('running'));
          }
          if (end === 'cancel') actor.send({ type: 'webhooks.cancel' });
          if (end === 'stop') actor.stop();
          await drain();
          if (end === 'retry' && actor.getSnapshot().can({ type: 'webhooks.retry' })) {
            actor.send({ type: 'webhooks.retry' });
            await drain();
          }
          expect(overlay.held).toBe(false);
          expect(overlay.calls.filter((c) => c === 'suspend').length).toBe(
            overlay.calls.filter((c) => c === 'resume').length,
          );
          if (end !== 'stop') expect(actor.getSnapshot().value).toBe('done');
          actor.stop();
        },
      ),
      { numRuns: 1000 },
    );
  });
});
