import fc from 'fast-check';
import { api, start } from '../test-support/dashboard-fixtures';
import { deferred, fakeServer, flush, type Deferred, type SeenRequest } from '../test-support/fake-fetch';

describe('dashboardMachine: only the latest request is shown', () => {
  it('a slower older answer never overwrites a newer one, and its calls are aborted', async () => {
    const held: { request: SeenRequest; answer: Deferred<Response> }[] = [];
    const fake = fakeServer((request) => {
      const answer = deferred<Response>();
      held.push({ request, answer });
      return answer.promise;
    });
    const actor = start({ rest: fake.rest });
    await flush();
    const first = held.splice(0);
    actor.send({ type: 'dashboard.range', startAt: '2026-11-01', finishAt: '2026-11-07' });
    await flush();
    for (const { request, answer } of held) answer.resolve(api(request));
    await flush();
    for (const { request, answer } of first) answer.resolve(api(request));
    await flush();
    expect(first.every(({ request }) => request.signal.aborted)).toBe(true);
    expect(actor.getSnapshot().context.summary?.current.orders).toBe(1);
    expect(actor.getSnapshot().context.series?.points.orders).toEqual([{ date: '2026-11-01', value: 1 }]);
  });

  it('for any interleaving of filter changes and answers, what is shown belongs to the current filters (100 runs)', async () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('range' as const), day: fc.integer({ min: 1, max: 20 }) }),
      fc.record({ kind: fc.constant('tenant' as const), pick: fc.boolean() }),
      fc.record({ kind: fc.constant('answer' as const), index: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        const held: { request: SeenRequest; answer: Deferred<Response> }[] = [];
        const fake = fakeServer((request) => {
          const answer = deferred<Response>();
          held.push({ request, answer });
          return answer.promise;
        });
        const actor = start({ rest: fake.rest });
        await flush();
        // The steps, then answers until nothing is held (each answer may be to a superseded request).
        const drain = function* () {
          yield* steps;
          while (held.length > 0) yield { kind: 'answer' as const, index: 0 };
        };
        for (const s of drain()) {
          if (s.kind === 'range')
            actor.send({
              type: 'dashboard.range',
              startAt: `2026-11-${String(s.day).padStart(2, '0')}`,
              finishAt: '2026-11-21',
            });
          if (s.kind === 'tenant') actor.send({ type: 'dashboard.tenant', tenant: s.pick ? 'farmacia-central' : null });
          if (s.kind === 'answer' && held.length > 0) {
            const [next] = held.splice(s.index % held.length, 1);
            next?.answer.resolve(api(next.request));
          }
          await flush();
          const { query, summary: shown, series } = actor.getSnapshot().context;
          const tag = Number(query.startAt.slice(8)) + (query.tenant ? 1000 : 0);
          if (actor.getSnapshot().matches({ loading: { summary: 'done' } }) || actor.getSnapshot().matches('ready'))
            expect(shown?.current.orders).toBe(tag);
          if (series) expect(series.points.orders[0]?.value).toBe(tag);
        }
        expect(actor.getSnapshot().value).toBe('ready');
        actor.stop();
      }),
      { numRuns: 100 },
    );
  });
});
