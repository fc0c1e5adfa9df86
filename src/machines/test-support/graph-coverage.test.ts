import { assign, fromPromise, setup } from 'xstate';
import { assertFullCoverage, doneEvent, errorEvent, exploreCoverage, heldPromise } from './graph-coverage';
import { stateNodesOf, timerEvents } from './graph-paths';

const sample = setup({
  types: { context: {} as { count: number }, events: {} as { type: 'go' } | { type: 'bump' } | { type: 'reset' } },
  actors: { load: fromPromise<number>(async () => 1) },
  guards: { full: ({ context }) => context.count >= 2 },
}).createMachine({
  id: 'sample',
  context: { count: 0 },
  initial: 'idle',
  states: {
    idle: { on: { go: 'loading', bump: { guard: 'full', target: 'overflow' } } },
    loading: {
      invoke: { id: 'load', src: 'load', onDone: 'ready', onError: 'failed' },
    },
    ready: {
      on: { bump: { actions: assign({ count: ({ context }) => context.count + 1 }) }, reset: 'idle' },
      after: { 500: 'idle' },
    },
    failed: { always: 'idle' },
    overflow: { type: 'final' },
  },
});

const faked = sample.provide({ actors: { load: heldPromise<number>() } });
const events = [
  { type: 'go' },
  { type: 'bump' },
  { type: 'reset' },
  doneEvent('load', 1),
  errorEvent('load', new Error('x')),
] as const;

describe('chart descriptors from the public state nodes', () => {
  it('lists every state node and every delayed transition of the chart', () => {
    expect(stateNodesOf(sample.root).map((node) => node.id)).toEqual([
      'sample',
      'sample.idle',
      'sample.loading',
      'sample.ready',
      'sample.failed',
      'sample.overflow',
    ]);
    expect(timerEvents(sample)).toEqual([{ type: 'xstate.after.500.sample.ready' }]);
  });
});

describe('exploreCoverage', () => {
  it('reaches every state and transition when the graph can see the guard context', async () => {
    const report = await exploreCoverage({ machine: faked, events, serializeContext: (c) => Math.min(c.count, 2) });
    assertFullCoverage(report);
    expect(report.states.total).toBe(5);
    // idle: go, bump; loading: done, error; ready: bump, reset, after; failed: always
    expect(report.transitions.total).toBe(8);
  });

  it('lists what it missed when the guard context is not part of the graph', async () => {
    const report = await exploreCoverage({ machine: faked, events });
    expect(report.states.missing).toEqual(['sample.overflow']);
    expect(report.transitions.missing).toEqual(['sample.idle --bump[0] if full--> sample.overflow']);
    expect(() => assertFullCoverage(report)).toThrow(/sample\.overflow/);
  });

  it('walks simple paths per scenario, starting where the prefix leads', async () => {
    const report = await exploreCoverage({
      machine: faked,
      events,
      serializeContext: (c) => Math.min(c.count, 2),
      strategies: ['simple'],
      simpleScenarios: [
        { prefix: [{ type: 'go' }, doneEvent('load', 1)], events: [{ type: 'bump' }, { type: 'reset' }] },
      ],
    });
    // Only what lies after go → done: the error branch is outside this scenario.
    expect(report.transitions.missing).toEqual([
      'sample.loading --xstate.error.actor.load[0]--> sample.failed',
      'sample.failed --(always)[0]--> sample.idle',
    ]);
    expect(report.divergences).toEqual([]);
    await expect(
      exploreCoverage({
        machine: faked,
        events,
        strategies: ['simple'],
        simpleScenarios: [{ prefix: [{ type: 'reset' }], events: [] }],
      }),
    ).rejects.toThrow();
  });

  it('refuses, before enumerating, simple paths that would not finish', async () => {
    const names = Array.from({ length: 10 }, (_, i) => `s${i}`);
    const on = Object.fromEntries(names.map((n) => [`to.${n}`, `.${n}`]));
    const dense = setup({ types: { events: {} as { type: string } } }).createMachine({
      id: 'dense',
      initial: 's0',
      on,
      states: Object.fromEntries(names.map((n) => [n, {}])),
    });
    const started = Date.now();
    await expect(
      exploreCoverage({ machine: dense, events: names.map((n) => ({ type: `to.${n}` })), strategies: ['simple'] }),
    ).rejects.toThrow(/simpleScenarios/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reports a divergence when a fake completes behind the walk', async () => {
    const eager = sample.provide({ actors: { load: fromPromise<number>(() => Promise.reject(new Error('eager'))) } });
    const report = await exploreCoverage({
      machine: eager,
      events,
      strategies: ['shortest'],
      drive: {
        go: async ({ actor, settle }) => {
          actor.send({ type: 'go' });
          await settle();
        },
      },
    });
    expect(report.divergences.length).toBeGreaterThan(0);
    expect(() => assertFullCoverage(report)).toThrow(/diverged/);
  });
});
