import fc from 'fast-check';
import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import { sheetDownloadMachine } from './sheet-download.machine';
import { createRowCounter, sheetFileName, type SheetRequest, type SheetSink } from './sheet-stream';
import { assertFullCoverage, exploreCoverage, formatCoverage, idleCallback } from '../test-support/graph-coverage';
import { deferred, fakeServer, flush, json, type Deferred } from '../test-support/fake-fetch';

const range = { startAt: '2026-11-01', finishAt: '2026-11-07' };
const orders: SheetRequest = { sheet: 'orders', query: range };
const encoder = new TextEncoder();
const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

/** A CSV body the test feeds chunk by chunk; `pulls` counts how often the reader asked for more. */
function controlledBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const state = { pulls: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>(
    {
      start: (c) => {
        controller = c;
      },
      pull: () => {
        state.pulls += 1;
      },
      cancel: () => {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return {
    body,
    state,
    push: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

/** A sink that records what it got; `hold` makes writes wait for the test. */
function recordingSink(hold = false) {
  const log = { chunks: [] as string[], closed: false, aborted: null as unknown, pending: [] as Deferred<void>[] };
  // ignoreBOM: keep the BOM in the text, to see the bytes pass through unchanged.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const sink: SheetSink = {
    write(chunk) {
      log.chunks.push(decoder.decode(chunk, { stream: true }));
      if (!hold) return undefined;
      const d = deferred<void>();
      log.pending.push(d);
      return d.promise;
    },
    close() {
      log.closed = true;
    },
    abort(reason) {
      log.aborted = reason ?? 'aborted';
    },
  };
  return { sink, log };
}

describe('sheetDownloadMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: sheetDownloadMachine.provide({ actors: { streamSheet: idleCallback() } }),
      input: () => ({ rest: unused.rest, openSink: () => recordingSink().sink }),
      events: [
        { type: 'sheets.download', request: orders },
        {
          type: 'sheets.download',
          request: { sheet: 'reasons', query: { startAt: '2026-11-07', finishAt: '2026-11-01' } },
        },
        { type: 'sheets.opened', file: { name: 'orders.csv', type: 'text/csv' } },
        { type: 'sheets.progress', progress: { bytes: 10, rows: 1 } },
        { type: 'sheets.finished', progress: { bytes: 20, rows: 2 } },
        { type: 'sheets.failed', error: new ApiError(500, null) },
        { type: 'sheets.cancel' },
        { type: 'sheets.reset' },
      ],
    });
    assertFullCoverage(report);
    console.info(`sheetDownloadMachine: ${formatCoverage(report)}`);
  });
});

describe('sheetDownloadMachine: streaming the CSV variant', () => {
  function setup(respond: () => Response | Promise<Response>, hold = false) {
    const fake = fakeServer(respond);
    const { sink, log } = recordingSink(hold);
    const files: string[] = [];
    const actor = createActor(sheetDownloadMachine, {
      input: {
        rest: fake.rest,
        openSink: (file) => {
          files.push(file.name);
          return sink;
        },
      },
    }).start();
    return { fake, actor, log, files, ctx: () => actor.getSnapshot().context };
  }
  const csvResponse = (body: ReadableStream<Uint8Array>) =>
    new Response(body, {
      status: 200,
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': 'attachment; filename="orders-2026-11-01-2026-11-07.csv"',
      },
    });

  it('asks for text/csv, writes chunk by chunk with progress in bytes and rows, then closes the sink', async () => {
    const csv = controlledBody();
    const t = setup(() => csvResponse(csv.body));
    t.actor.send({ type: 'sheets.download', request: orders });
    await flush();
    const seen = t.fake.seen[0];
    expect(seen?.path).toBe('/api/tenant/sheets/orders');
    expect(Object.fromEntries(seen?.query ?? [])).toEqual(range);
    expect(seen?.headers.get('accept')).toBe('text/csv');
    expect(t.files).toEqual(['orders-2026-11-01-2026-11-07.csv']);
    csv.push('\uFEFFid;cliente\r\n1;Maria\r\n2;"Jo');
    await flush();
    expect(t.ctx().progress).toEqual({
      bytes: encoder.encode('\uFEFFid;cliente\r\n1;Maria\r\n2;"Jo').byteLength,
      rows: 1,
    });
    csv.push('ão\r\nda Silva"\r\n3;Ana');
    csv.end();
    await flush();
    expect(t.actor.getSnapshot().value).toEqual({ ended: 'done' });
    expect(t.ctx().progress.rows).toBe(3);
    expect(t.log.chunks.join('')).toBe('\uFEFFid;cliente\r\n1;Maria\r\n2;"João\r\nda Silva"\r\n3;Ana');
    expect(t.log.closed).toBe(true);
    expect(t.log.aborted).toBeNull();
  });

  it('reads the next chunk only after the sink took the last one (never the whole file in memory)', async () => {
    const csv = controlledBody();
    const t = setup(() => csvResponse(csv.body), true);
    t.actor.send({ type: 'sheets.download', request: orders });
    await flush();
    csv.push('h\n1\n');
    await flush();
    expect(t.log.pending).toHaveLength(1);
    const pullsWhileWriting = csv.state.pulls;
    csv.push('2\n');
    csv.push('3\n');
    await flush();
    expect(t.log.chunks).toHaveLength(1);
    expect(csv.state.pulls).toBe(pullsWhileWriting);
    t.log.pending[0]?.resolve();
    await flush();
    expect(t.log.chunks).toHaveLength(2);
  });

  it('cancel aborts the request and the sink, and nothing is reported after', async () => {
    const csv = controlledBody();
    const t = setup(() => csvResponse(csv.body));
    t.actor.send({ type: 'sheets.download', request: orders });
    await flush();
    csv.push('h\n1\n');
    await flush();
    t.actor.send({ type: 'sheets.cancel' });
    await flush();
    expect(t.actor.getSnapshot().value).toEqual({ ended: 'cancelled' });
    expect(t.fake.seen[0]?.signal.aborted).toBe(true);
    expect(csv.state.cancelled).toBe(true);
    expect(t.log.aborted).not.toBeNull();
    expect(t.log.closed).toBe(false);
    expect(t.ctx().progress.rows).toBe(1);
  });

  it('a refused download opens no sink and says why; the sink refusing cancels the body', async () => {
    const t = setup(() => json(403, { message: 'Forbidden' }));
    t.actor.send({
      type: 'sheets.download',
      request: { sheet: 'attendances', query: { ...range, websiteId: 1, estimation: true } },
    });
    await flush();
    expect(t.fake.seen[0]?.path).toBe('/api/tenant/sheets/attendances');
    expect(Object.fromEntries(t.fake.seen[0]?.query ?? [])).toEqual({ ...range, websiteId: '1', estimation: 'true' });
    expect(t.actor.getSnapshot().value).toEqual({ ended: 'failed' });
    expect(t.ctx().error).toEqual({ key: 'sheets.errors.download', reason: 'apiErrors.forbidden' });
    expect(t.files).toEqual([]);

    const csv = controlledBody();
    const fake = fakeServer(() => csvResponse(csv.body));
    const dismissed = new Error('The user aborted a request.');
    dismissed.name = 'AbortError';
    const actor = createActor(sheetDownloadMachine, {
      input: { rest: fake.rest, openSink: () => Promise.reject(dismissed) },
    }).start();
    actor.send({ type: 'sheets.download', request: { sheet: 'productivity', query: range } });
    await flush();
    expect(fake.seen[0]?.path).toBe('/api/dashboard/productivity');
    expect(actor.getSnapshot().context.error).toEqual({ key: 'sheets.errors.download', reason: 'apiErrors.cancelled' });
    expect(csv.state.cancelled).toBe(true);
  });

  it('refuses a bad range locally and can start again after any end', async () => {
    const t = setup(() => csvResponse(new Response('h\n1\n').body as ReadableStream<Uint8Array>));
    t.actor.send({
      type: 'sheets.download',
      request: { sheet: 'instance_logs', query: { startAt: '2026-11-08', finishAt: '2026-11-01' } },
    });
    expect(t.ctx().invalid).toBe('sheets.errors.range');
    expect(t.fake.seen).toHaveLength(0);
    t.actor.send({ type: 'sheets.download', request: { sheet: 'instance_logs', query: range } });
    await flush();
    expect(t.fake.seen[0]?.path).toBe('/api/tenant/sheets/instance_logs');
    expect(t.actor.getSnapshot().value).toEqual({ ended: 'done' });
    expect(t.ctx().progress).toEqual({ bytes: 4, rows: 1 });
    t.actor.send({ type: 'sheets.reset' });
    expect(t.ctx().progress).toEqual({ bytes: 0, rows: 0 });
  });
});

describe('CSV row counting across chunks', () => {
  const cell = fc.string({ unit: fc.constantFrom('a', 'é', ';', '"', '\r', '\n', ' ', '1'), maxLength: 6 });
  const quote = (text: string) => (/[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

  it('counts the data rows of any server-shaped CSV however it is split (1000 runs)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (rows, cuts) => {
          const text = '\uFEFFa;b\r\n' + rows.map((r) => `${r.map(quote).join(';')}\r\n`).join('');
          const bytes = encoder.encode(text);
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const counter = createRowCounter();
          let from = 0;
          for (const at of [...points, bytes.length]) {
            counter.feed(bytes.subarray(from, at));
            from = at;
          }
          expect(counter.rows(true)).toBe(rows.length);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('names the file from Content-Disposition, else from the sheet and range', () => {
    expect(sheetFileName(orders, 'attachment; filename="orders-a.csv"')).toBe('orders-a.csv');
    expect(sheetFileName(orders, "attachment; filename*=UTF-8''relat%C3%B3rio.csv")).toBe('relatório.csv');
    expect(sheetFileName(orders, null)).toBe('orders-2026-11-01-2026-11-07.csv');
  });
});
