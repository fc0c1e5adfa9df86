import { createActor, type EventObject } from 'xstate';
import {
  assertFullCoverage,
  exploreCoverage,
  formatCoverage,
  idleCallback,
  type GraphEvent,
} from '../test-support/graph-coverage';
import { auditRecord, fakeAuditApi } from '../test-support/fake-audit-api';
import type { OpenSink, SheetSink } from '../reports/sheet-stream';
import type { RestClient } from '../../api/rest-client';
import type { AuditQuery } from './audit-query';
import { deferred, fakeServer, json } from '../test-support/fake-fetch';
import { auditExportMachine, auditFileName, selectExportOutcome } from './audit-export.machine';
import { defaultAuditQuery } from './audit-query';

function memorySink() {
  const chunks: Uint8Array[] = [];
  const state = { closed: false, aborted: false };
  const sink: SheetSink = {
    write: (chunk) => void chunks.push(chunk),
    close: () => void (state.closed = true),
    abort: () => void (state.aborted = true),
  };
  const text = () => new TextDecoder('utf-8', { ignoreBOM: true }).decode(Buffer.concat(chunks));
  return { sink, state, text };
}

type StreamInput = { rest: RestClient; query: AuditQuery; openSink: OpenSink };

describe('auditExportMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition, the stream running exactly while busy', async () => {
    const sink = memorySink().sink;
    // The stream's reports are the walk's events; the stand-in stream reports nothing by itself.
    const events: GraphEvent<typeof auditExportMachine>[] = [
      { type: 'export.start', query: defaultAuditQuery(), openSink: () => sink },
      { type: 'export.opened', file: { name: 'auditoria.csv', type: 'text/csv' } },
      { type: 'export.progress', progress: { bytes: 120, rows: 2 } },
      { type: 'export.finished', progress: { bytes: 240, rows: 4 } },
      { type: 'export.failed', error: new TypeError('Failed to fetch') },
      { type: 'export.cancel' },
    ];
    const report = await exploreCoverage({
      machine: auditExportMachine.provide({ actors: { streamAudit: idleCallback<EventObject, StreamInput>() } }),
      input: () => ({ rest: fakeServer(() => json(500, {})).rest }),
      events,
      onStep: ({ actor }) => {
        const snapshot = actor.getSnapshot();
        // One download at a time, and none left running once it ended (cancel stops the stream).
        expect(Object.keys(snapshot.children)).toEqual(snapshot.hasTag('busy') ? ['streamAudit'] : []);
      },
    });
    assertFullCoverage(report);
    console.info(`auditExportMachine: ${formatCoverage(report)}`);
  });
});

describe('auditExportMachine', () => {
  it('streams the CSV of the filters (Accept text/csv, no cursor) into the sink and counts the rows', async () => {
    const api = fakeAuditApi([auditRecord(1), auditRecord(2, { operation: 'user.create', target_name: 'Olívia' })]);
    const server = fakeServer(api.respond);
    const actor = createActor(auditExportMachine, { input: { rest: server.rest } }).start();
    const out = memorySink();
    actor.send({
      type: 'export.start',
      query: { ...defaultAuditQuery(), operation: 'user.create' },
      openSink: () => out.sink,
    });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await vi.waitFor(() => expect(selectExportOutcome(actor.getSnapshot())).toBe('done'));
    expect(api.seen[0]!.headers.get('Accept')).toBe('text/csv');
    expect(api.seen[0]!.query.getAll('operation')).toEqual(['user.create']);
    expect(out.state.closed).toBe(true);
    expect(out.text()).toBe('\uFEFFid;operacao;alvo_nome\r\n2;user.create;Olívia\r\n');
    expect(actor.getSnapshot().context.progress.rows).toBe(1);
    expect(actor.getSnapshot().context.file?.name).toBe(auditFileName());
    expect(auditFileName(new Date(2026, 10, 5, 12))).toBe('auditoria-2026-11-05.csv');
  });

  it('a refused export fails with its reason and never opens the sink; cancel aborts a running one', async () => {
    const refused = fakeServer(() => json(403, { message: 'forbidden', required_permission: 'audit' }));
    const actor = createActor(auditExportMachine, { input: { rest: refused.rest } }).start();
    const opened = vi.fn();
    actor.send({ type: 'export.start', query: defaultAuditQuery(), openSink: opened });
    await vi.waitFor(() => expect(selectExportOutcome(actor.getSnapshot())).toBe('failed'));
    expect(actor.getSnapshot().context.error).toEqual({ key: 'audit.errors.export', reason: 'apiErrors.forbidden' });
    expect(opened).not.toHaveBeenCalled();

    const held = deferred<Response>();
    const slow = fakeServer(() => held.promise);
    const second = createActor(auditExportMachine, { input: { rest: slow.rest } }).start();
    second.send({ type: 'export.start', query: defaultAuditQuery(), openSink: opened });
    second.send({ type: 'export.cancel' });
    expect(selectExportOutcome(second.getSnapshot())).toBe('cancelled');
    expect(slow.seen[0]?.signal.aborted).toBe(true);
  });
});
