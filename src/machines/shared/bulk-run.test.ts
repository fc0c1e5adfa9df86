import fc from 'fast-check';
import { createActor, createMachine } from 'xstate';
import { ApiError } from '../../api/api-error';
import {
  bulkActor,
  chainedBulkActor,
  emptyRun,
  failedItems,
  finishRun,
  overlayHold,
  recordResult,
  runBulk,
  runProgress,
  startRun,
  type BulkItemResult,
} from './bulk-run';

const RUNS = { numRuns: 1000 };

/** The outcome each item's call will have; `fail` throws an ApiError with this status. */
const scriptArb = fc.array(fc.record({ ok: fc.boolean(), status: fc.constantFrom(400, 404, 409, 500) }), {
  maxLength: 24,
});

describe('runBulk', () => {
  it('never exceeds its bound and reports every item exactly once, ok or failed as the call ended', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), scriptArb, fc.integer({ min: 1, max: 6 }), async (s, script, concurrency) => {
        let inFlight = 0;
        let peak = 0;
        const reports = new Map<number, BulkItemResult<number>[]>();
        const work = async (index: number) => {
          inFlight += 1;
          peak = Math.max(peak, inFlight);
          try {
            await s.schedule(Promise.resolve(index), `item ${index}`);
            const step = script[index];
            if (!step?.ok) throw new ApiError(step?.status ?? 500, null);
            return index * 10;
          } finally {
            inFlight -= 1;
          }
        };
        const done = runBulk(
          script.map((_, i) => i),
          work,
          (index, result) => reports.set(index, [...(reports.get(index) ?? []), result]),
          { concurrency },
        );
        await s.waitFor(done);
        expect(peak).toBeLessThanOrEqual(concurrency);
        expect(peak).toBe(Math.min(concurrency, script.length));
        expect([...reports.keys()].sort((a, b) => a - b)).toEqual(script.map((_, i) => i));
        script.forEach((step, i) => {
          const results = reports.get(i) ?? [];
          expect(results).toHaveLength(1);
          expect(results[0]).toEqual(
            step.ok
              ? { status: 'ok', value: i * 10 }
              : { status: 'failed', reason: expect.stringMatching(/^apiErrors\./) },
          );
        });
      }),
      RUNS,
    );
  });

  it('after an abort starts nothing new and still reports every item exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        scriptArb,
        fc.integer({ min: 1, max: 4 }),
        fc.nat(24),
        async (s, script, concurrency, abortAfter) => {
          const controller = new AbortController();
          const started: number[] = [];
          const reports: number[] = [];
          let startedAfterAbort = false;
          const work = async (index: number) => {
            if (controller.signal.aborted) startedAfterAbort = true;
            started.push(index);
            await s.schedule(Promise.resolve(), `item ${index}`);
            if (!script[index]?.ok) throw new Error('boom');
            return index;
          };
          const results = new Map<number, BulkItemResult<number>>();
          const done = runBulk(
            script.map((_, i) => i),
            work,
            (index, result) => {
              reports.push(index);
              results.set(index, result);
              if (reports.length === abortAfter) controller.abort();
            },
            { concurrency, signal: controller.signal },
          );
          await s.waitFor(done);
          expect(startedAfterAbort).toBe(false);
          expect([...reports].sort((a, b) => a - b)).toEqual(script.map((_, i) => i));
          for (const [index, result] of results) {
            if (!started.includes(index)) expect(result).toEqual({ status: 'failed', reason: 'apiErrors.cancelled' });
          }
        },
      ),
      RUNS,
    );
  });

  it('a retry of a run reruns exactly its failed items', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), scriptArb, fc.integer({ min: 1, max: 5 }), async (s, script, concurrency) => {
        const items = script.map((_, i) => `feature-${i}`);
        let run = startRun<string, string>(items);
        const first = runBulk(
          items,
          async (item) => {
            await s.schedule(Promise.resolve(), item);
            if (!script[items.indexOf(item)]?.ok) throw new ApiError(500, null);
            return item;
          },
          (index, result) => {
            run = recordResult(run, index, result);
          },
          { concurrency },
        );
        await s.waitFor(first);
        run = finishRun(run, false);
        const expectedFailed = items.filter((_, i) => !script[i]?.ok);
        expect(failedItems(run)).toEqual(expectedFailed);
        expect(runProgress(run)).toEqual({ done: items.length, failed: expectedFailed.length, total: items.length });

        const retried: string[] = [];
        const retry = runBulk(
          failedItems(run),
          async (item) => {
            retried.push(item);
            await s.schedule(Promise.resolve(), `retry ${item}`);
            return item;
          },
          () => undefined,
          { concurrency },
        );
        await s.waitFor(retry);
        expect([...retried].sort()).toEqual([...expectedFailed].sort());
      }),
      RUNS,
    );
  });
});

describe('run bookkeeping', () => {
  it('counts a second report for the same item once', () => {
    let run = startRun<string, number>(['a', 'b']);
    run = recordResult(run, 0, { status: 'ok', value: 1 });
    const again = recordResult(run, 0, { status: 'failed', reason: 'apiErrors.server' });
    expect(again).toBe(run);
    expect(runProgress(run)).toEqual({ done: 1, failed: 0, total: 2 });
  });

  it('names the outcome: success, partial, error (all failed) and cancelled (unreported items failed)', () => {
    const ok: BulkItemResult<number> = { status: 'ok', value: 1 };
    const ko: BulkItemResult<number> = { status: 'failed', reason: 'apiErrors.server' };
    const two = startRun<string, number>(['a', 'b']);
    expect(finishRun(recordResult(recordResult(two, 0, ok), 1, ok), false).outcome).toBe('success');
    expect(finishRun(recordResult(recordResult(two, 0, ok), 1, ko), false).outcome).toBe('partial');
    expect(finishRun(recordResult(recordResult(two, 0, ko), 1, ko), false).outcome).toBe('error');
    const cancelled = finishRun(recordResult(two, 0, ok), true);
    expect(cancelled.outcome).toBe('cancelled');
    expect(cancelled.entries[1]?.result).toEqual({ status: 'failed', reason: 'apiErrors.cancelled' });
    expect(failedItems(cancelled)).toEqual(['b']);
    expect(emptyRun()).toEqual({ entries: [], outcome: null });
  });
});

describe('bulkActor and overlayHold', () => {
  it('sends each result then bulk.finished, and nothing after it is stopped', async () => {
    const events: unknown[] = [];
    const release: (() => void)[] = [];
    const logic = bulkActor<{ tag: string }, number, string>(
      (input, item) =>
        new Promise((resolve) => {
          release.push(() => resolve(`${input.tag}${item}`));
        }),
    );
    const parent = createActor(
      createMachine({
        invoke: { src: logic, input: { tag: 'x', items: [1, 2, 3], concurrency: 2 } },
        on: { '*': { actions: ({ event }) => events.push(event) } },
      }),
    ).start();
    await Promise.resolve();
    expect(release).toHaveLength(2);
    release[1]?.();
    await new Promise((r) => setTimeout(r, 0));
    expect(events).toEqual([{ type: 'bulk.result', index: 1, result: { status: 'ok', value: 'x2' } }]);
    parent.stop();
    release[0]?.();
    await new Promise((r) => setTimeout(r, 0));
    expect(events).toHaveLength(1);
  });

  it('suspends the overlay while running and resumes it when stopped', () => {
    const calls: string[] = [];
    const actor = createActor(overlayHold, {
      input: { overlay: { suspend: () => calls.push('suspend'), resume: () => calls.push('resume') } },
    });
    actor.start();
    expect(calls).toEqual(['suspend']);
    actor.stop();
    expect(calls).toEqual(['suspend', 'resume']);
  });
});

describe('chainedBulkActor', () => {
  /** Runs a chained actor over `items`; `answer` gives each call's answer (or throws) from the version it was sent. */
  async function chained(
    items: string[],
    version: number | null,
    answer: (item: string, version: number | null) => { item: string; version: number },
    concurrency = 3,
  ) {
    const events: { type: string; index?: number }[] = [];
    const sent: [string, number | null][] = [];
    let inFlight = 0;
    let peak = 0;
    const logic = chainedBulkActor<object, string, { item: string; version: number }>(
      async (_, item, sentVersion) => {
        sent.push([item, sentVersion]);
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 0));
        inFlight -= 1;
        return answer(item, sentVersion);
      },
      (value) => value.version,
      (error) => error instanceof ApiError && error.status === 409,
    );
    let ended: () => void = () => undefined;
    const end = new Promise<void>((resolve) => (ended = resolve));
    const parent = createActor(
      createMachine({
        invoke: { src: logic, input: { items, concurrency, version } },
        on: {
          '*': {
            actions: ({ event }) => {
              events.push(event as { type: string; index?: number });
              if (event.type === 'bulk.finished' || event.type === 'bulk.stopped') ended();
            },
          },
        },
      }),
    ).start();
    // Until the run says it ended (every path sends bulk.finished or bulk.stopped last).
    await end;
    parent.stop();
    return { events: events.map((e) => `${e.type}${e.index === undefined ? '' : `:${e.index}`}`), sent, peak };
  }

  it('sends one call at a time, each with the version the previous answer carried', async () => {
    const run = await chained(['a', 'b', 'c'], 3, (item, version) => ({ item, version: (version ?? 0) + 1 }));
    expect(run.sent).toEqual([
      ['a', 3],
      ['b', 4],
      ['c', 5],
    ]);
    expect(run.peak).toBe(1);
    expect(run.events).toEqual(['bulk.result:0', 'bulk.result:1', 'bulk.result:2', 'bulk.finished']);
  });

  it('a stopping error ends the run there; another error fails its item and the run goes on with the same version', async () => {
    const run = await chained(['a', 'b', 'c', 'd'], 3, (item, version) => {
      if (item === 'b') throw new ApiError(500, null);
      if (item === 'c') throw new ApiError(409, { error: 'stale' });
      return { item, version: (version ?? 0) + 1 };
    });
    expect(run.sent).toEqual([
      ['a', 3],
      ['b', 4],
      ['c', 4],
    ]);
    expect(run.events).toEqual(['bulk.result:0', 'bulk.result:1', 'bulk.stopped:2']);
  });

  it('without a version nothing chains: the items run concurrency at a time, sending none', async () => {
    const run = await chained(['a', 'b', 'c'], null, (item) => ({ item, version: 1 }), 2);
    expect(run.sent.map(([, version]) => version)).toEqual([null, null, null]);
    expect(run.peak).toBe(2);
    expect(run.events.at(-1)).toBe('bulk.finished');
  });
});
