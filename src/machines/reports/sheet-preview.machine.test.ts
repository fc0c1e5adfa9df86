import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import { PREVIEW_LIMIT, sheetPreviewMachine, type PreviewRequest } from './sheet-preview.machine';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
} from '../test-support/graph-coverage';
import { deferred, fakeServer, flush, json } from '../test-support/fake-fetch';

const range = { startAt: '2026-11-01', finishAt: '2026-11-07' };
const orders: PreviewRequest = { sheet: 'orders', query: range };
const order = {
  id: 1,
  tenantName: 'farmacia-central',
  created_at: '2026-11-01T13:05:00Z',
  customer_name: 'Maria Souza',
  website_id: 1,
  status: 'delivered',
  items: 3,
  total: 129.9,
};
const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

describe('sheetPreviewMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: sheetPreviewMachine.provide({ actors: { loadPreview: heldPromise() } }),
      input: () => ({ rest: unused.rest }),
      events: [
        { type: 'sheets.preview', request: orders },
        {
          type: 'sheets.preview',
          request: { sheet: 'reasons', query: { startAt: '2026-11-07', finishAt: '2026-11-01' } },
        },
        doneEvent('loadPreview', { sheet: 'orders', data: [order], total: 1, limit: PREVIEW_LIMIT }),
        errorEvent('loadPreview', new ApiError(500, null)),
      ],
    });
    assertFullCoverage(report);
    console.info(`sheetPreviewMachine: ${formatCoverage(report)}`);
  });
});

describe('sheetPreviewMachine: against the REST contract', () => {
  it.each([
    ['orders', '/api/tenant/sheets/orders', { tenantName: 'farmacia-central' }],
    ['attendances', '/api/tenant/sheets/attendances', { websiteId: 2, estimation: false }],
    ['instance_logs', '/api/tenant/sheets/instance_logs', {}],
    ['reasons', '/api/tenant/sheets/reasons', { tenancyId: 3, reasonId: 4 }],
  ] as const)('asks %s for a bounded JSON preview with its filters', async (sheet, path, filters) => {
    const fake = fakeServer(() => json(200, { data: [], total: 12_345, limit: PREVIEW_LIMIT }));
    const actor = createActor(sheetPreviewMachine, { input: { rest: fake.rest } }).start();
    actor.send({ type: 'sheets.preview', request: { sheet, query: { ...range, ...filters } } as PreviewRequest });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await flush();
    expect(fake.seen[0]?.path).toBe(path);
    expect(fake.seen[0]?.headers.get('accept')).toBe('application/json');
    expect(Object.fromEntries(fake.seen[0]?.query ?? [])).toEqual({
      ...Object.fromEntries(Object.entries({ ...range, ...filters }).map(([k, v]) => [k, String(v)])),
      limit: String(PREVIEW_LIMIT),
    });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.preview).toEqual({ sheet, data: [], total: 12_345, limit: PREVIEW_LIMIT });
  });

  it('a newer preview replaces one in flight (the old request is aborted)', async () => {
    const first = deferred<Response>();
    const fake = fakeServer((r) =>
      r.query.get('startAt') === '2026-10-01'
        ? first.promise
        : json(200, { data: [order], total: 1, limit: PREVIEW_LIMIT }),
    );
    const actor = createActor(sheetPreviewMachine, { input: { rest: fake.rest } }).start();
    actor.send({
      type: 'sheets.preview',
      request: { sheet: 'orders', query: { startAt: '2026-10-01', finishAt: '2026-10-31' } },
    });
    await flush();
    actor.send({ type: 'sheets.preview', request: orders });
    await flush();
    expect(fake.seen[0]?.signal.aborted).toBe(true);
    first.resolve(json(200, { data: [], total: 0, limit: PREVIEW_LIMIT }));
    await flush();
    expect(actor.getSnapshot().context.preview?.total).toBe(1);
    expect(actor.getSnapshot().context.request).toEqual(orders);
  });

  it('refuses a bad range locally; a failure keeps no rows and says why', async () => {
    const fake = fakeServer(() => json(403, { message: 'Forbidden', required_permission: ['dashboard-analytics'] }));
    const actor = createActor(sheetPreviewMachine, { input: { rest: fake.rest } }).start();
    actor.send({
      type: 'sheets.preview',
      request: { sheet: 'orders', query: { startAt: '2026-11-08', finishAt: '2026-11-01' } },
    });
    expect(actor.getSnapshot().context.invalid).toBe('sheets.errors.range');
    expect(fake.seen).toHaveLength(0);
    actor.send({ type: 'sheets.preview', request: orders });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context).toMatchObject({
      preview: null,
      invalid: null,
      error: { key: 'sheets.panel.errors.preview', reason: 'apiErrors.forbidden' },
    });
  });

  it('a CSV answer where JSON was asked for is an error, not rows', async () => {
    const fake = fakeServer(
      () => new Response('\uFEFFid\r\n1\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } }),
    );
    const actor = createActor(sheetPreviewMachine, { input: { rest: fake.rest } }).start();
    actor.send({ type: 'sheets.preview', request: orders });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
  });
});
