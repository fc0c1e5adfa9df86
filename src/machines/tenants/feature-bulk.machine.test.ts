import fc from 'fast-check';
import { createActor, fromPromise } from 'xstate';
import { ApiError } from '../../api/api-error';
import type { RestClient } from '../../api/rest-client';
import { createAppBus, type BusMessageOf } from '../shared/app-bus';
import { chainedBulkActor } from '../shared/bulk-run';
import {
  changedFeatures,
  featureBulkMachine,
  featureProgress,
  featureRows,
  unsavedFeatures,
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
import type { GraphEvent, SimpleScenario } from '../test-support/graph-paths';
import { deferred, fakeServer, flush, json, type Deferred } from '../test-support/fake-fetch';
import { expectOverlayRestored, fakeOverlay, type FakeOverlay } from '../test-support/fake-overlay';

const tenantName = 'farmacia-central';
const stored = (option: string, enabled: boolean): Feature => ({ option, enabled, tenantName });

const stale = { error: 'stale', message: 'changed since', field: 'version', version: 4, changes: [] };
const unusedRest = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
}).rest;

type Machine = typeof featureBulkMachine;

describe('featureBulkMachine: model coverage', () => {
  const machine = featureBulkMachine.provide({
    actors: {
      loadFeatures: heldPromise(),
      saveFeatures: idleCallback(),
      checkRemote: heldPromise(),
      watchTarget: idleCallback(),
    },
  });

  /** Walks the graph over `features`; the overlay must be held exactly while saving. */
  function explore(features: Feature[], strategies: PathStrategy[], simpleScenarios?: SimpleScenario<Machine>[]) {
    const [first, second] = features.map((f) => f.option);
    return exploreCoverage({
      machine,
      strategies,
      ...(simpleScenarios && { simpleScenarios }),
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
        const pending = run.entries.findIndex((entry) => entry.result === null);
        const newer = { version: 4, features: features.map((f) => ({ ...f, enabled: !f.enabled })) };
        return [
          doneEvent('loadFeatures', { version: 3, features }),
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
          // The conflict notice (src/machines/shared/conflict.ts): a stale answer stops the run.
          ...(pending >= 0 ? [{ type: 'bulk.stopped' as const, index: pending, error: new ApiError(409, stale) }] : []),
          { type: 'conflict.remote', id: 41, version: null, targetId: 1 },
          // The editor's own version: not news.
          { type: 'conflict.remote', id: 42, version: 3 },
          doneEvent('checkRemote', { record: newer, version: 4, newer: true, changes: [] }),
          doneEvent('checkRemote', { record: { version: 3, features }, version: 3, newer: false, changes: [] }),
          errorEvent('checkRemote', new TypeError('offline')),
          { type: 'conflict.reapply' },
          { type: 'conflict.discard' },
          { type: 'conflict.dismiss' },
          doneEvent('loadFeatures', newer),
        ];
      },
      // Guards read the draft, the stored state, the results, the version and the notice: the graph's key.
      serializeContext: (context) => [
        context.draft,
        context.saved,
        context.run.entries.map((entry) => entry.result?.status ?? null),
        context.version,
        context.remoteIds.length > 0,
        context.conflict !== null,
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
    const chat = [stored('chat', true)];
    const ok = { type: 'bulk.result', index: 0, result: { status: 'ok', value: stored('chat', false) } } as const;
    const failed = { type: 'bulk.result', index: 0, result: { status: 'failed', reason: 'apiErrors.server' } } as const;
    const edits: GraphEvent<Machine>[] = [
      { type: 'features.toggle', option: 'chat' },
      { type: 'features.reset' },
      { type: 'features.save' },
    ];
    const report = await explore(
      chat,
      ['shortest', 'simple', 'transitions'],
      [
        // The editor and its runs.
        {
          events: [
            doneEvent('loadFeatures', { version: 3, features: chat }),
            errorEvent('loadFeatures', new ApiError(500, null)),
            { type: 'features.reload' },
            ...edits,
            { type: 'features.cancel' },
            { type: 'features.retry' },
            { type: 'features.dismiss' },
            ok,
            failed,
            { type: 'bulk.finished' },
          ],
        },
        // The conflict notice, from the feature ticked: a stale answer, a live change, both choices.
        {
          prefix: [
            doneEvent('loadFeatures', { version: 3, features: chat }),
            { type: 'features.toggle', option: 'chat' },
          ],
          events: [
            { type: 'features.save' },
            { type: 'bulk.stopped', index: 0, error: new ApiError(409, stale) },
            { type: 'conflict.remote', id: 41, version: null, targetId: 1 },
            doneEvent('checkRemote', { record: { version: 4, features: chat }, version: 4, newer: true, changes: [] }),
            errorEvent('checkRemote', new TypeError('offline')),
            { type: 'conflict.reapply' },
            { type: 'conflict.discard' },
            { type: 'conflict.dismiss' },
            doneEvent('loadFeatures', { version: 4, features: chat }),
          ],
        },
      ],
    );
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
              loadFeatures: fromPromise(async () => ({
                version: null as number | null,
                features: options.map((option) => stored(option, false)),
              })),
              saveFeatures: chainedBulkActor<{ rest: RestClient; tenantName: string }, FeatureChange, Feature>(
                async (_, change) => {
                  await s.schedule(Promise.resolve(), change.option);
                  if (!outcomes[options.indexOf(change.option)]) throw new ApiError(500, null);
                  return stored(change.option, change.enabled);
                },
                () => null,
                () => false,
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

/**
 * The features editor's versioned save and conflict notice (docs/lists.md, Conflict notice) against a fake
 * that keeps the feature set's version as the server does (server/src/tenants/service.ts `setFeature`):
 * every change raises it, a POST with another version answers 409 `stale` with the changes since.
 */
describe('featureBulkMachine: versions and the conflict notice', () => {
  /** `afterSave`: runs after each POST the fake accepted (another person's change between two of them). */
  function versioned(afterSave?: (saved: number) => void) {
    const state: Record<string, boolean> = { campaigns: false, chat: false, chatbot: false };
    let version = 3;
    const audit: Record<string, unknown>[] = [];
    const posts: Record<string, unknown>[] = [];
    const set = (option: string, enabled: boolean, actor: string) => {
      const before = state[option];
      state[option] = enabled;
      version += 1;
      audit.push({
        id: 60 + audit.length,
        at: '2026-11-28T10:00:00.000Z',
        actor_name: actor,
        actor_staff: true,
        operation: 'tenant.feature',
        target_type: 'tenant',
        target_id: 1,
        target_version: version,
        changes: [{ field: option, before: JSON.stringify(before), after: JSON.stringify(enabled) }],
      });
      return audit.at(-1)?.id as number;
    };
    const features = () => Object.entries(state).map(([option, enabled]) => ({ option, enabled, tenantName, version }));
    const server = fakeServer((r) => {
      if (r.method === 'GET' && r.path === '/api/tenant/feature') return json(200, features());
      if (r.path === '/api/audit')
        return json(200, {
          data: [
            // A change of the tenant itself, versioned apart: never the editor's.
            { ...audit[0], id: 5, operation: 'tenant.update', target_version: 99, changes: [] },
            ...[...audit].reverse(),
          ],
          total: audit.length + 1,
        });
      const body = r.body as { option: string; enabled: boolean; version?: number };
      posts.push(body);
      if (body.version !== undefined && body.version !== version)
        return json(409, {
          error: 'stale',
          message: 'changed since',
          field: 'version',
          version,
          changes: audit.filter((a) => (a.target_version as number) > (body.version ?? 0)),
        });
      set(body.option, body.enabled, 'Eu');
      const answer = { option: body.option, enabled: body.enabled, tenantName, version };
      afterSave?.(posts.length);
      return json(200, answer);
    });
    return { server, state, posts, set };
  }

  function start(server: ReturnType<typeof fakeServer>, bus = createAppBus()) {
    const overlay = fakeOverlay();
    const actor = createActor(featureBulkMachine, {
      input: { rest: server.rest, tenantName, overlay, staff: true, bus },
    }).start();
    return { actor, overlay, bus };
  }

  const announce = (
    bus: ReturnType<typeof createAppBus>,
    id: number,
    targetVersion: number,
    operation = 'tenant.feature',
  ) =>
    bus.publish({
      name: 'auditRecorded',
      tenantName,
      sentAt: '2026-11-28T10:00:00.000Z',
      data: {
        id,
        at: '2026-11-28T10:00:00.000Z',
        operation,
        targetType: 'tenant',
        targetId: 1,
        targetName: tenantName,
        targetVersion,
      } as BusMessageOf<'auditRecorded'>['data'],
    });

  it('saves one POST at a time, each with the version the previous answer carried', async () => {
    const { server, posts, state } = versioned();
    const { actor, overlay } = start(server);
    await flush();
    for (const option of ['campaigns', 'chat', 'chatbot']) actor.send({ type: 'features.toggle', option });
    actor.send({ type: 'features.save' });
    await flush();
    expect(posts.map((p) => [p.option, p.version])).toEqual([
      ['campaigns', 3],
      ['chat', 4],
      ['chatbot', 5],
    ]);
    expect(actor.getSnapshot().matches('done')).toBe(true);
    expect(actor.getSnapshot().context.run.outcome).toBe('success');
    expect(actor.getSnapshot().context.version).toBe(6);
    expect(state).toEqual({ campaigns: true, chat: true, chatbot: true });
    expectOverlayRestored(overlay, false);
  });

  it('its own POSTs announced before their answers are not news: the run ends in done, nothing read again', async () => {
    const { server } = versioned();
    const bus = createAppBus();
    const { actor } = start(server, bus);
    await flush();
    actor.send({ type: 'features.toggle', option: 'chat' });
    actor.send({ type: 'features.save' });
    // The socket can be faster than the POST's answer.
    announce(bus, 60, 4);
    expect(actor.getSnapshot().context.remoteIds).toEqual([60]);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches('done')).toBe(true);
    expect(snapshot.context.run.outcome).toBe('success');
    expect(snapshot.context.remoteIds).toEqual([]);
    expect(server.seen.filter((r) => r.method === 'GET')).toHaveLength(1);
  });

  it('a stale answer mid-run stops the rest, keeps the saved ones as saved, and reapply saves the rest with the new version', async () => {
    // Someone else turns chat on right after the first POST is saved.
    const { server, posts, state, set } = versioned((saved) => {
      if (saved === 1) set('chat', true, 'Outra Pessoa');
    });
    const { actor } = start(server);
    await flush();
    for (const option of ['campaigns', 'chatbot']) actor.send({ type: 'features.toggle', option });
    actor.send({ type: 'features.save' });
    await flush();
    expect(posts.map((p) => [p.option, p.version])).toEqual([
      ['campaigns', 3],
      ['chatbot', 4],
    ]);
    let snapshot = actor.getSnapshot();
    expect(snapshot.matches('conflict')).toBe(true);
    expect(snapshot.context.conflict).toMatchObject({ source: 'save', kept: true, version: 5 });
    expect(snapshot.context.conflict?.changes).toEqual([
      expect.objectContaining({
        actorName: 'Outra Pessoa',
        changes: [{ field: 'chat', before: 'false', after: 'true' }],
      }),
    ]);
    // The feature saved before the stale answer shows as saved; the other is still the user's, unsaved.
    expect(featureRows(snapshot).map((r) => [r.option, r.changed, r.result?.status ?? null])).toEqual([
      ['campaigns', false, 'ok'],
      ['chat', false, null],
      ['chatbot', true, null],
    ]);
    expect(unsavedFeatures(snapshot.context)).toEqual([{ field: 'chatbot', before: 'false', after: 'true' }]);
    actor.send({ type: 'conflict.reapply' });
    await flush();
    expect(posts.at(-1)).toMatchObject({ option: 'chatbot', enabled: true, version: 5 });
    snapshot = actor.getSnapshot();
    expect(snapshot.matches('done')).toBe(true);
    // Nothing lost: the other person's change and both of the user's.
    expect(state).toEqual({ campaigns: true, chat: true, chatbot: true });
    expect(snapshot.context.saved).toEqual(state);
  });

  it('discard reloads the features as stored now and sends nothing more', async () => {
    const { server, posts, set } = versioned();
    const { actor } = start(server);
    await flush();
    set('chat', true, 'Outra Pessoa');
    actor.send({ type: 'features.toggle', option: 'campaigns' });
    actor.send({ type: 'features.save' });
    await flush();
    expect(actor.getSnapshot().matches('conflict')).toBe(true);
    actor.send({ type: 'conflict.discard' });
    await flush();
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(context.saved).toEqual({ campaigns: false, chat: true, chatbot: false });
    expect(changedFeatures(context)).toEqual([]);
    expect(context.version).toBe(4);
    expect(posts).toHaveLength(1);
  });

  it('a feature change announced for the tenant opens the notice at once with unsaved ticks, and reloads without', async () => {
    const { server, set } = versioned();
    const bus = createAppBus();
    const { actor } = start(server, bus);
    await flush();
    // A change of the tenant itself (its own version) is not the editor's.
    const seen = server.seen.length;
    announce(bus, 90, 12, 'tenant.update');
    await flush();
    expect(server.seen).toHaveLength(seen);
    announce(bus, set('chat', true, 'Outra Pessoa'), 4);
    await flush();
    let snapshot = actor.getSnapshot();
    expect(snapshot.matches('editing')).toBe(true);
    expect(snapshot.context.conflict).toMatchObject({ source: 'live', kept: false, version: 4 });
    expect(snapshot.context.conflict?.changes.map((c) => c.operation)).toEqual(['tenant.feature']);
    expect(snapshot.context.saved).toMatchObject({ chat: true });
    actor.send({ type: 'conflict.dismiss' });
    actor.send({ type: 'features.toggle', option: 'campaigns' });
    announce(bus, set('chatbot', true, 'Outra Pessoa'), 5);
    await flush();
    snapshot = actor.getSnapshot();
    expect(snapshot.matches('conflict')).toBe(true);
    expect(snapshot.context.conflict).toMatchObject({ source: 'live', kept: true, version: 5 });
    expect(snapshot.context.conflict?.changes.map((c) => c.changes[0]?.field)).toEqual(['chatbot']);
  });
});
