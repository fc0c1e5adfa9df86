import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import {
  bulkActionMachine,
  bulkProgress,
  bulkResultRows,
  dryRunGroups,
  type BulkAnswer,
  type BulkActionSnapshot,
  type BulkSelection,
  type BulkTarget,
} from './bulk-action.machine';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
  type PathStrategy,
} from '../test-support/graph-coverage';
import { deferred, fakeServer, flush, json, type Deferred, type SeenRequest } from '../test-support/fake-fetch';
import { expectOverlayRestored, fakeOverlay, type FakeOverlay } from '../test-support/fake-overlay';

const unusedRest = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
}).rest;

/** The ids of the chunk a snapshot is sending (dry run: from `ids`; real run: from the run's entries). */
function chunkIds(snapshot: BulkActionSnapshot): number[] {
  const { cursor, chunkSize, ids, run } = snapshot.context;
  if (snapshot.matches('dryRunning')) return ids.slice(cursor, cursor + chunkSize);
  return run.entries.slice(cursor, cursor + chunkSize).map((entry) => entry.item);
}

const answer = (ids: number[], outcome: (id: number, i: number) => string, batchId: number | null): BulkAnswer => ({
  batch_id: batchId,
  results: ids.map((id, i) => {
    const o = outcome(id, i);
    return {
      id,
      name: `Row ${id}`,
      outcome: o as BulkAnswer['results'][number]['outcome'],
      ...(o === 'refused' ? { reason: 'forbidden', message: 'no way up' } : {}),
      ...(o === 'failed' ? { reason: 'failed', message: 'Injected fault' } : {}),
    };
  }),
});

describe('bulkActionMachine: model coverage', () => {
  const machine = bulkActionMachine.provide({ actors: { resolveIds: heldPromise(), sendChunk: heldPromise() } });

  /** Walks every state and transition over `ids` in chunks of two; the overlay is held exactly while running. */
  function explore(ids: number[], strategies: PathStrategy[]) {
    const selection: BulkSelection = { kind: 'matching', list: 'tenants', body: { search: 'pw' } };
    const target: BulkTarget = { kind: 'tenantFeature', option: 'chatbot', enabled: true };
    return exploreCoverage({
      machine,
      strategies,
      input: () => ({ rest: unusedRest, target, selection, overlay: fakeOverlay(), chunkSize: 2 }),
      events: (snapshot) => {
        const chunk = chunkIds(snapshot);
        const dry = snapshot.matches('dryRunning');
        const running = snapshot.matches('running');
        return [
          doneEvent('resolveIds', ids),
          doneEvent('resolveIds', []),
          errorEvent('resolveIds', new ApiError(400, { message: 'too many' })),
          ...(dry
            ? [
                doneEvent(
                  'dryChunk',
                  answer(chunk, () => 'change', null),
                ),
                doneEvent(
                  'dryChunk',
                  answer(chunk, (_, i) => (i === 0 ? 'unchanged' : 'refused'), null),
                ),
                errorEvent('dryChunk', new ApiError(503, null)),
              ]
            : []),
          ...(running
            ? [
                doneEvent(
                  'runChunk',
                  answer(chunk, () => 'changed', 41),
                ),
                doneEvent(
                  'runChunk',
                  answer(chunk, (_, i) => (i === 0 ? 'failed' : 'changed'), 41),
                ),
                errorEvent('runChunk', new ApiError(500, null)),
              ]
            : []),
          { type: 'bulk.confirm' },
          { type: 'bulk.cancel' },
          { type: 'bulk.retry' },
          { type: 'bulk.close' },
        ];
      },
      // Guards read the cursor, the dry run's outcomes, the run's results and the cancel flag.
      serializeContext: (context) => [
        context.ids.length,
        context.cursor,
        context.dry.map((row) => row.outcome),
        context.run.entries.map((entry) => entry.result?.status ?? null),
        context.cancelling,
      ],
      onStep: ({ actor, input }) => {
        expectOverlayRestored(input?.overlay as FakeOverlay, actor.getSnapshot().matches('running'));
      },
    });
  }

  it('shortest paths and one path per edge, over three ids in chunks of two, reach every state and transition', async () => {
    const report = await explore([1, 2, 3], ['shortest', 'transitions']);
    assertFullCoverage(report);
    console.info(`bulkActionMachine (shortest + edges): ${formatCoverage(report)}`);
  });

  it('shortest, simple and per-edge paths, over three ids, reach every state and transition', async () => {
    // Simple paths never revisit a state, so edges back to one (retry → running) come from the other two.
    const report = await explore([7, 8, 9], ['shortest', 'simple', 'transitions']);
    assertFullCoverage(report);
    console.info(`bulkActionMachine (all strategies): ${formatCoverage(report)}`);
  });
});

describe('bulkActionMachine: against the REST contract', () => {
  type Body = { ids: number[]; dry_run: boolean; batch_id?: number; total?: number; action?: string; option?: string };

  /** A server deciding rows as `decide` says; chunks of real runs wait on `hold` when given. */
  function setup(options: {
    target: BulkTarget;
    selection: BulkSelection;
    decide: (id: number, dryRun: boolean, attempt: number) => string;
    hold?: boolean;
    chunkSize?: number;
  }) {
    const held: Deferred<Response>[] = [];
    const attempts = new Map<number, number>();
    const server = fakeServer((request: SeenRequest) => {
      if (request.path === '/api/users/ids' || request.path === '/api/tenant/ids')
        return json(200, { ids: [5, 6, 7, 8, 9], total: 5 });
      const body = request.body as Body;
      const results = body.ids.map((id) => {
        const attempt = body.dry_run ? 0 : (attempts.get(id) ?? 0) + 1;
        if (!body.dry_run) attempts.set(id, attempt);
        const outcome = options.decide(id, body.dry_run, attempt);
        return {
          id,
          name: `Row ${id}`,
          outcome,
          ...(outcome === 'refused' ? { reason: 'own_account', message: 'own' } : {}),
          ...(outcome === 'failed' ? { reason: 'failed', message: 'fault' } : {}),
        };
      });
      const response = json(200, { batch_id: body.dry_run ? null : (body.batch_id ?? 900), results });
      if (!options.hold || body.dry_run) return response;
      const d = deferred<Response>();
      held.push(d);
      return d.promise.then(() => response);
    });
    const overlay = fakeOverlay();
    const actor = createActor(bulkActionMachine, {
      input: {
        rest: server.rest,
        target: options.target,
        selection: options.selection,
        overlay,
        chunkSize: options.chunkSize ?? 2,
      },
    }).start();
    return { server, actor, overlay, held };
  }
  const bodies = (seen: SeenRequest[], path: string) => seen.filter((r) => r.path === path).map((r) => r.body as Body);

  it('resolves "all matching", dry-runs in chunks, runs only the rows that would change, one batch, and retries the failed ones in it', async () => {
    const { server, actor, overlay } = setup({
      target: { kind: 'tenantFeature', option: 'chatbot', enabled: true },
      selection: {
        kind: 'matching',
        list: 'tenants',
        body: { search: 'pw-', feature: 'chatbot', feature_enabled: false },
      },
      // 6 is already on, 9 is refused; 8 fails once, then changes.
      decide: (id, dryRun, attempt) =>
        id === 6
          ? 'unchanged'
          : id === 9
            ? 'refused'
            : dryRun
              ? 'change'
              : id === 8 && attempt === 1
                ? 'failed'
                : 'changed',
    });
    await flush();
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('review');
    expect(server.seen[0]).toMatchObject({ path: '/api/tenant/ids', body: { search: 'pw-', feature: 'chatbot' } });
    const dry = bodies(server.seen, '/api/tenant/features/bulk');
    expect(dry.map((b) => [b.ids, b.dry_run, b.option, b.total])).toEqual([
      [[5, 6], true, 'chatbot', 5],
      [[7, 8], true, 'chatbot', 5],
      [[9], true, 'chatbot', 5],
    ]);
    const groups = dryRunGroups(snapshot);
    expect([groups.change, groups.unchanged, groups.refused].map((g) => g.map((r) => r.id))).toEqual([
      [5, 7, 8],
      [6],
      [9],
    ]);
    expect(groups.refused[0]).toMatchObject({ reason: 'own_account' });

    actor.send({ type: 'bulk.confirm' });
    expect(overlay.held).toBe(true);
    await flush();
    await flush();
    expect(actor.getSnapshot().value).toBe('done');
    expectOverlayRestored(overlay, false);
    const run = bodies(server.seen, '/api/tenant/features/bulk').filter((b) => !b.dry_run);
    expect(run.map((b) => [b.ids, b.batch_id])).toEqual([
      [[5, 7], undefined],
      [[8], 900],
    ]);
    expect(bulkProgress(actor.getSnapshot())).toEqual({ done: 3, failed: 1, total: 3 });
    expect(actor.getSnapshot().context.run.outcome).toBe('partial');
    expect(bulkResultRows(actor.getSnapshot()).map((r) => [r.id, r.outcome])).toEqual([
      [5, 'changed'],
      [7, 'changed'],
      [8, 'failed'],
    ]);

    actor.send({ type: 'bulk.retry' });
    await flush();
    await flush();
    const retry = bodies(server.seen, '/api/tenant/features/bulk')
      .filter((b) => !b.dry_run)
      .at(-1);
    expect(retry).toMatchObject({ ids: [8], batch_id: 900 });
    expect(actor.getSnapshot().context.run.outcome).toBe('success');
    expect(bulkResultRows(actor.getSnapshot())).toEqual([
      { id: 8, name: 'Row 8', outcome: 'changed', reason: null, failure: null },
    ]);
  });

  it('cancel stops between chunks: the chunk in flight finishes, the rest end failed as cancelled, and retry sends them', async () => {
    const { server, actor, held, overlay } = setup({
      target: { kind: 'users', action: 'block' },
      selection: { kind: 'ids', ids: [1, 2, 3, 4, 5] },
      decide: (_id, dryRun) => (dryRun ? 'change' : 'changed'),
      hold: true,
    });
    await flush();
    await flush();
    expect(actor.getSnapshot().value).toBe('review');
    expect(server.seen.map((r) => r.path)).not.toContain('/api/users/ids');
    actor.send({ type: 'bulk.confirm' });
    await flush();
    actor.send({ type: 'bulk.cancel' });
    expect(actor.getSnapshot().matches('running')).toBe(true);
    held[0]?.resolve(new Response());
    await flush();
    await flush();
    expect(actor.getSnapshot().value).toBe('done');
    expect(held).toHaveLength(1);
    expect(actor.getSnapshot().context.run.outcome).toBe('cancelled');
    expect(bulkResultRows(actor.getSnapshot()).map((r) => [r.id, r.outcome, r.failure])).toEqual([
      [1, 'changed', null],
      [2, 'changed', null],
      [3, 'failed', 'apiErrors.cancelled'],
      [4, 'failed', 'apiErrors.cancelled'],
      [5, 'failed', 'apiErrors.cancelled'],
    ]);
    expectOverlayRestored(overlay, false);
    actor.send({ type: 'bulk.retry' });
    await flush();
    const users = bodies(server.seen, '/api/users/bulk').filter((b) => !b.dry_run);
    expect(users.at(-1)).toMatchObject({ ids: [3, 4], action: 'block', batch_id: 900 });
  });

  it('a request refused whole fails the run, retry starts over, close ends it; nothing that would change: no confirm', async () => {
    let fail = true;
    const server = fakeServer((request) => {
      if (request.path === '/api/users/ids')
        return fail ? json(400, { message: 'Validation failed', errors: [] }) : json(200, { ids: [3], total: 1 });
      return json(200, { batch_id: null, results: [{ id: 3, name: 'Row 3', outcome: 'unchanged' }] });
    });
    const actor = createActor(bulkActionMachine, {
      input: {
        rest: server.rest,
        target: { kind: 'users', action: 'unblock' },
        selection: { kind: 'matching', list: 'users', query: { blocked: 'true' } as never },
        overlay: fakeOverlay(),
      },
    }).start();
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toEqual({
      key: 'bulkAction.errors.select',
      reason: 'apiErrors.validation',
    });
    fail = false;
    actor.send({ type: 'bulk.retry' });
    await flush();
    await flush();
    expect(actor.getSnapshot().value).toBe('review');
    actor.send({ type: 'bulk.confirm' });
    expect(actor.getSnapshot().value).toBe('review');
    actor.send({ type: 'bulk.close' });
    expect(actor.getSnapshot().status).toBe('done');
  });
});
