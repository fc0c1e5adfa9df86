import fc from 'fast-check';
import { createActor, fromPromise } from 'xstate';
import { ApiError } from '../../api/api-error';
import type { RestClient } from '../../api/rest-client';
import { bulkActor } from '../shared/bulk-run';
import {
  changedFeatures,
  featureBulkMachine,
  featureProgress,
  featureRows,
  type Feature,
  type FeatureChange,
} from './feature-bulk.machine';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
  idleCallback,
  type PathStrategy,
} from '../test-support/graph-coverage';
import { deferred, fakeServer, flush, json, type Deferred } from '../test-support/fake-fetch';
import { expectOverlayRestored, fakeOverlay, type FakeOverlay } from '../test-support/fake-overlay';

const tenantName = 'farmacia-central';
const stored = (option: string, enabled: boolean): Feature => ({ option, enabled, tenantName });

const unusedRest = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
}).rest;

describe('featureBulkMachine: model coverage', () => {
  const machine = featureBulkMachine.provide({ actors: { loadFeatures: heldPromise(), saveFeatures: idleCallback() } });

  /** Walks the graph over `features`; the overlay must be held exactly while saving. */
  function explore(features: Feature[], strategies: PathStrategy[]) {
    const [first, second] = features.map((f) => f.option);
    return exploreCoverage({
      machine,
      strategies,
      input: () => ({ rest: unusedRest, tenantName, overlay: fakeOverlay(), staff: true }),
      events: (snapshot) => {
        const { run } = snapshot.context;
        const results = run.entries.flatMap((entry, index) =>
          entry.result === null
            ? [
                {
                  type: 'bulk.result' as const,
                  index,
                  result: { status: 'ok' as const, value: stored(entry.item.option, entry.item.enabled) },
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
        return [
          doneEvent('loadFeatures', features),
          errorEvent('loadFeatures', new ApiError(500, null)),
          { type: 'features.reload' },
          { type: 'features.toggle', option: first ?? '' },
          { type: 'features.set', option: second ?? first ?? '', enabled: false },
          { type: 'features.reset' },
          { type: 'features.save' },
          { type: 'features.cancel' },
          { type: 'features.retry' },
          { type: 'features.dismiss' },
          ...results,
          ...(allReported ? [{ type: 'bulk.finished' as const }] : []),
        ];
      },
      // Guards read the draft, the stored state and the results: all of it is the graph's key.
      serializeContext: (context) => [
        context.draft,
        context.saved,
        context.run.entries.map((entry) => entry.result?.status ?? null),
      ],
      onStep: ({ actor, input }) => {
        expectOverlayRestored(input?.overlay as FakeOverlay, actor.getSnapshot().matches('saving'));
      },
    });
  }

  it('shortest paths and one path per edge, over two features, reach every state and transition', async () => {
    const report = await explore([stored('campaigns', true), stored('chat', false)], ['shortest', 'transitions']);
    assertFullCoverage(report);
    console.info(`featureBulkMachine (shortest + edges): ${formatCoverage(report)}`);
  });

  it('shortest, simple and per-edge paths, over one feature, reach every state and transition', async () => {
    // Simple paths never revisit a state, so edges back to one (retry → saving) come from the other two.
    const report = await explore([stored('chat', true)], ['shortest', 'simple', 'transitions']);
    assertFullCoverage(report);
    console.info(`featureBulkMachine (all strategies): ${formatCoverage(report)}`);
  });
});

describe('featureBulkMachine: against the REST contract', () => {
  const options = ['analytics', 'campaigns', 'chat', 'chatbot', 'webhooks'];

  function setup(concurrency = 2, answer?: (body: FeatureChange) => Promise<Response>) {
    const held: Deferred<Response>[] = [];
    const server = fakeServer((request) => {
      if (request.method === 'GET')
        return json(
          200,
          options.map((option) => stored(option, option === 'chat')),
        );
      if (answer) return answer(request.body as FeatureChange);
      const d = deferred<Response>();
      held.push(d);
      return d.promise;
    });
    const overlay = fakeOverlay();
    const actor = createActor(featureBulkMachine, {
      input: { rest: server.rest, tenantName, overlay, concurrency, staff: true },
    }).start();
    return { server, overlay, actor, held };
  }

  it('loads the tenant features by tenantName', async () => {
    const { server, actor } = setup();
    await flush();
    expect(server.seen[0]?.path).toBe('/api/tenant/feature');
    expect(server.seen[0]?.query.get('tenantName')).toBe(tenantName);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(featureRows(actor.getSnapshot()).map((row) => [row.option, row.enabled])).toEqual(
      options.map((o) => [o, o === 'chat']),
    );
  });

  it('sends one POST per changed feature, never more than the bound at once, and reports n of m', async () => {
    const { server, actor, held, overlay } = setup(2);
    await flush();
    actor.send({ type: 'features.toggle', option: 'analytics' });
    actor.send({ type: 'features.toggle', option: 'chat' });
    actor.send({ type: 'features.set', option: 'chatbot', enabled: true });
    actor.send({ type: 'features.toggle', option: 'webhooks' });
    actor.send({ type: 'features.toggle', option: 'webhooks' }); // back to stored: not a change
    expect(changedFeatures(actor.getSnapshot().context)).toHaveLength(3);
    actor.send({ type: 'features.save' });
    await flush();
    expect(overlay.calls).toEqual(['suspend']);
    expect(held).toHaveLength(2);
    expect(server.seen.slice(1).map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/api/tenant/feature', { option: 'analytics', enabled: true, tenantName }],
      ['POST', '/api/tenant/feature', { option: 'chat', enabled: false, tenantName }],
    ]);
    held[0]?.resolve(json(200, stored('analytics', true)));
    await flush();
    expect(featureProgress(actor.getSnapshot())).toEqual({ done: 1, failed: 0, total: 3 });
    expect(held).toHaveLength(3);
    held[1]?.resolve(json(200, stored('chat', false)));
    held[2]?.resolve(json(200, stored('chatbot', true)));
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('done');
    expect(snapshot.context.run.outcome).toBe('success');
    expect(changedFeatures(snapshot.context)).toEqual([]);
    expect(overlay.calls).toEqual(['suspend', 'resume']);
  });

  it('lists failures and retries exactly the failed features', async () => {
    const failing = new Set(['campaigns', 'chatbot']);
    const { server, actor, overlay } = setup(3, async (body) =>
      failing.has(body.option)
        ? json(404, { message: 'Feature not found' })
        : json(200, stored(body.option, body.enabled)),
    );
    await flush();
    for (const option of ['analytics', 'campaigns', 'chatbot']) actor.send({ type: 'features.toggle', option });
    actor.send({ type: 'features.save' });
    await flush();
    let snapshot = actor.getSnapshot();
    expect(snapshot.context.run.outcome).toBe('partial');
    expect(
      featureRows(snapshot)
        .filter((row) => row.result?.status === 'failed')
        .map((row) => [row.option, row.result]),
    ).toEqual([
      ['campaigns', { status: 'failed', reason: 'apiErrors.notFound' }],
      ['chatbot', { status: 'failed', reason: 'apiErrors.notFound' }],
    ]);
    failing.clear();
    const before = server.seen.length;
    actor.send({ type: 'features.retry' });
    await flush();
    expect(
      server.seen
        .slice(before)
        .map((r) => (r.body as FeatureChange).option)
        .sort(),
    ).toEqual(['campaigns', 'chatbot']);
    snapshot = actor.getSnapshot();
    expect(snapshot.context.run.outcome).toBe('success');
    expect(overlay.calls).toEqual(['suspend', 'resume', 'suspend', 'resume']);
  });

  it('cancel aborts the calls in flight, lists unfinished features as failed and resumes the overlay', async () => {
    const { server, actor, held, overlay } = setup(1);
    await flush();
    actor.send({ type: 'features.toggle', option: 'analytics' });
    actor.send({ type: 'features.toggle', option: 'campaigns' });
    actor.send({ type: 'features.save' });
    await flush();
    actor.send({ type: 'features.cancel' });
    expect(server.seen[1]?.signal.aborted).toBe(true);
    expect(held).toHaveLength(1);
    const snapshot = actor.getSnapshot();
    expect(snapshot.context.run.outcome).toBe('cancelled');
    expect(featureProgress(snapshot)).toEqual({ done: 2, failed: 2, total: 2 });
    expect(overlay.calls).toEqual(['suspend', 'resume']);
  });

  it('a load failure shows features.errors.load with its reason, and reload tries again', async () => {
    let fail = true;
    const server = fakeServer(() => (fail ? json(403, { message: 'Forbidden' }) : json(200, [stored('chat', true)])));
    const actor = createActor(featureBulkMachine, {
      input: { rest: server.rest, tenantName, overlay: fakeOverlay(), staff: true },
    }).start();
    await flush();
    expect(actor.getSnapshot().value).toBe('loadFailed');
    expect(actor.getSnapshot().context.error).toEqual({ key: 'features.errors.load', reason: 'apiErrors.forbidden' });
    fail = false;
    actor.send({ type: 'features.reload' });
    await flush();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('for anyone but staff the features only load: edits and saves change nothing and send nothing', async () => {
    const server = fakeServer(() =>
      json(
        200,
        options.map((option) => stored(option, option === 'chat')),
      ),
    );
    const actor = createActor(featureBulkMachine, {
      input: { rest: server.rest, tenantName, overlay: fakeOverlay() },
    }).start();
    await flush();
    expect(actor.getSnapshot().context.staff).toBe(false);
    actor.send({ type: 'features.toggle', option: 'chatbot' });
    actor.send({ type: 'features.set', option: 'chat', enabled: false });
    actor.send({ type: 'features.save' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(featureRows(actor.getSnapshot()).filter((row) => row.changed)).toEqual([]);
    expect(server.seen.map((r) => r.method)).toEqual(['GET']);
  });

  it('ignores edits of unknown features and a save without changes', async () => {
    const { actor } = setup();
    await flush();
    actor.send({ type: 'features.toggle', option: 'nope' });
    actor.send({ type: 'features.save' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.draft['nope']).toBeUndefined();
  });
});

describe('featureBulkMachine: the overlay comes back in every outcome', () => {
  it('success, partial failure, error, cancel, stop mid-run, and retries (1000 runs)', async () => {
    const ending = fc.constantFrom('finish', 'cancel', 'stop', 'retry');
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 3 }),
        fc.nat(6),
        ending,
        async (s, outcomes, concurrency, settleFirst, end) => {
          const options = outcomes.map((_, i) => `f${i}`);
          const overlay = fakeOverlay();
          const machine = featureBulkMachine.provide({
            actors: {
              loadFeatures: fromPromise(async () => options.map((option) => stored(option, false))),
              saveFeatures: bulkActor<{ rest: RestClient; tenantName: string }, FeatureChange, Feature>(
                async (_, change) => {
                  await s.schedule(Promise.resolve(), change.option);
                  if (!outcomes[options.indexOf(change.option)]) throw new ApiError(500, null);
                  return stored(change.option, change.enabled);
                },
              ),
            },
          });
          const actor = createActor(machine, {
            input: { rest: unusedRest, tenantName, overlay, concurrency, staff: true },
          }).start();
          // Calls start a few microtasks after the event; drain until nothing is scheduled any more.
          const drain = async () => {
            do {
              await s.waitAll();
              await flush();
            } while (s.count() > 0);
          };
          await flush();
          for (const option of options) actor.send({ type: 'features.toggle', option });
          actor.send({ type: 'features.save' });
          await flush();
          for (let i = 0; i < settleFirst && s.count() > 0; i += 1) {
            await s.waitOne();
            expect(overlay.held).toBe(actor.getSnapshot().matches('saving'));
          }
          if (end === 'cancel') actor.send({ type: 'features.cancel' });
          if (end === 'stop') actor.stop();
          await drain();
          if (end === 'retry' && actor.getSnapshot().can({ type: 'features.retry' })) {
            actor.send({ type: 'features.retry' });
            await drain();
          }
          expect(overlay.held).toBe(false);
          expect(overlay.calls.filter((c) => c === 'suspend').length).toBe(
            overlay.calls.filter((c) => c === 'resume').length,
          );
          expect(overlay.calls[0]).toBe('suspend');
          if (end !== 'stop') expect(actor.getSnapshot().value).toBe('done');
          actor.stop();
        },
      ),
      { numRuns: 1000 },
    );
  });
});
