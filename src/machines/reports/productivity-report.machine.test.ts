import fc from 'fast-check';
import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import { isValidRange } from '../../domain/date-range';
import {
  productivityReportMachine,
  sortedProductivity,
  sortProductivity,
  type ProductivityKey,
  type ProductivityRow,
} from './productivity-report.machine';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
} from '../test-support/graph-coverage';
import { fakeServer, flush, json } from '../test-support/fake-fetch';

const range = { startAt: '2026-11-01', finishAt: '2026-11-07' };
const row = (user_id: number, name: string, attendances: number): ProductivityRow => ({
  user_id,
  name,
  attendances,
  avgFirstResponseSeconds: 30 + user_id,
  avgHandlingSeconds: 600,
  closedTickets: attendances - 1,
});
const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

describe('productivityReportMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: productivityReportMachine.provide({ actors: { loadProductivity: heldPromise() } }),
      input: () => ({ rest: unused.rest, ...range }),
      events: [
        { type: 'reports.range', startAt: '2026-11-08', finishAt: '2026-11-01' },
        { type: 'reports.range', ...range },
        { type: 'reports.run' },
        { type: 'reports.sort', key: 'name' },
        doneEvent('loadProductivity', [row(2, 'Olívia', 120)]),
        errorEvent('loadProductivity', new ApiError(403, null)),
      ],
      serializeContext: (context) => [isValidRange(context.range), context.sort],
    });
    assertFullCoverage(report);
    console.info(`productivityReportMachine: ${formatCoverage(report)}`);
  });
});

describe('productivityReportMachine: against the REST contract', () => {
  it('asks for JSON rows of the range and tenant, then sorts them client-side', async () => {
    const fake = fakeServer(() => json(200, [row(1, 'Bruno', 50), row(2, 'ana', 120), row(3, 'Álvaro', 50)]));
    const actor = createActor(productivityReportMachine, {
      input: { rest: fake.rest, tenantName: 'farmacia-central', ...range },
    }).start();
    actor.send({ type: 'reports.run' });
    await flush();
    const seen = fake.seen[0];
    expect(seen?.path).toBe('/api/dashboard/productivity');
    expect(Object.fromEntries(seen?.query ?? [])).toEqual({ ...range, tenantName: 'farmacia-central' });
    expect(seen?.headers.get('accept')).toBe('application/json');
    expect(sortedProductivity(actor.getSnapshot()).map((r) => r.user_id)).toEqual([2, 1, 3]);
    actor.send({ type: 'reports.sort', key: 'name' });
    expect(sortedProductivity(actor.getSnapshot()).map((r) => r.name)).toEqual(['Álvaro', 'ana', 'Bruno']);
    actor.send({ type: 'reports.sort', key: 'name' });
    expect(sortedProductivity(actor.getSnapshot()).map((r) => r.name)).toEqual(['Bruno', 'ana', 'Álvaro']);
  });

  it('a failure is an empty list with an error key; a bad range is refused locally', async () => {
    const fake = fakeServer(() =>
      json(403, { message: 'Forbidden', required_permission: ['dashboard-produtivity-report'] }),
    );
    const actor = createActor(productivityReportMachine, {
      input: { rest: fake.rest, startAt: '2026-11-07', finishAt: '2026-11-01' },
    }).start();
    actor.send({ type: 'reports.run' });
    expect(actor.getSnapshot().context.invalid).toBe('reports.errors.range');
    actor.send({ type: 'reports.range', ...range });
    actor.send({ type: 'reports.run' });
    await flush();
    expect(actor.getSnapshot().context.rows).toEqual([]);
    expect(actor.getSnapshot().context.error).toEqual({
      key: 'reports.errors.productivity',
      reason: 'apiErrors.forbidden',
    });
  });
});

describe('sortProductivity', () => {
  const rowArb: fc.Arbitrary<ProductivityRow> = fc.record({
    user_id: fc.integer({ min: 1, max: 50 }),
    name: fc.constantFrom('Ana', 'ana', 'Álvaro', 'Bruno', 'bruno', 'Zé'),
    attendances: fc.integer({ min: 0, max: 5 }),
    avgFirstResponseSeconds: fc.double({ min: 0, max: 100, noNaN: true }),
    avgHandlingSeconds: fc.double({ min: 0, max: 1000, noNaN: true }),
    closedTickets: fc.integer({ min: 0, max: 5 }),
  });
  const keys: ProductivityKey[] = [
    'user_id',
    'name',
    'attendances',
    'avgFirstResponseSeconds',
    'avgHandlingSeconds',
    'closedTickets',
  ];

  it('is an ordered, stable permutation for any rows, column and direction (1000 runs)', () => {
    const collator = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });
    fc.assert(
      fc.property(
        fc.array(rowArb, { maxLength: 30 }),
        fc.constantFrom(...keys),
        fc.constantFrom('asc' as const, 'desc' as const),
        (rows, key, direction) => {
          const out = sortProductivity(rows, { key, direction });
          expect([...out].sort((a, b) => rows.indexOf(a) - rows.indexOf(b))).toEqual(rows);
          for (let i = 1; i < out.length; i += 1) {
            const [a, b] = [out[i - 1] as ProductivityRow, out[i] as ProductivityRow];
            const cmp =
              typeof a[key] === 'string'
                ? collator.compare(String(a[key]), String(b[key]))
                : Number(a[key]) - Number(b[key]);
            expect(direction === 'asc' ? cmp <= 0 : cmp >= 0).toBe(true);
            if (cmp === 0) expect(rows.indexOf(a)).toBeLessThan(rows.indexOf(b));
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
