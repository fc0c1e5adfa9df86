import { createActor } from 'xstate';
import { auditRecord, fakeAuditApi } from '../test-support/fake-audit-api';
import type { SheetSink } from '../reports/sheet-stream';
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
