import fc from 'fast-check';
import { createActor, SimulatedClock } from 'xstate';
import { tenantsListMachine } from './tenants-list.machine';
import { flush, json } from '../test-support/fake-fetch';
import { heldServer, page, tenant } from '../test-support/tenants-list-fixtures';

describe('tenantsListMachine: never shows data from a request older than the latest', () => {
  type Op =
    | { kind: 'start'; page: number }
    | { kind: 'answer'; pick: number; ok: boolean }
    | { kind: 'type'; text: string }
    | { kind: 'tick' };
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('start' as const), page: fc.integer({ min: 1, max: 3 }) }), weight: 3 },
    { arbitrary: fc.record({ kind: fc.constant('answer' as const), pick: fc.nat(), ok: fc.boolean() }), weight: 4 },
    { arbitrary: fc.record({ kind: fc.constant('type' as const), text: fc.constantFrom('', 'farm') }), weight: 1 },
    { arbitrary: fc.constant({ kind: 'tick' as const }), weight: 1 },
  );

  it('for any interleaving of request starts, typing and answer orders (1000 runs)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 12 }), async (ops) => {
        const server = heldServer();
        const clock = new SimulatedClock();
        const actor = createActor(tenantsListMachine, {
          input: { rest: server.rest, staff: true, debounceMs: 300 },
          clock,
        }).start();
        await flush();
        const open = new Set<number>([0]);
        let shown = -1; // index of the request whose rows are on screen
        const check = () => {
          const snapshot = actor.getSnapshot();
          const ids = snapshot.context.rows.map((t) => t.id);
          const now = ids.length ? (ids[0] ?? 0) - 1000 : -1;
          const latest = server.paged().length - 1;
          // Rows change only to the answer of the latest request, never back to an older one.
          if (now !== shown) {
            expect(now).toBe(latest);
            expect(now).toBeGreaterThan(shown);
            shown = now;
          }
          // Shown as ready (not loading): the rows are the latest request's answer.
          if (snapshot.matches({ list: 'ready' })) expect(now).toBe(latest);
        };
        for (const op of ops) {
          const before = server.paged().length;
          if (op.kind === 'start') {
            actor.send({ type: 'tenants.page', page: op.page });
            await flush();
            // Every change issues a new request, whatever is still in flight.
            expect(server.paged()).toHaveLength(before + 1);
          } else if (op.kind === 'type') {
            actor.send({ type: 'tenants.search', text: op.text });
          } else if (op.kind === 'tick') {
            clock.increment(300);
            await flush();
          } else if (open.size > 0) {
            const pending = [...open];
            const index = pending[op.pick % pending.length] ?? 0;
            open.delete(index);
            server.pages[index]?.resolve(
              op.ok ? json(200, page([tenant(1000 + index)])) : json(500, { message: 'boom' }),
            );
            await flush();
          }
          for (let i = before; i < server.paged().length; i += 1) open.add(i);
          check();
        }
        actor.stop();
      }),
      { numRuns: 1000 },
    );
  });
});
