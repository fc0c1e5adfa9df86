import { createActor, type EventObject } from 'xstate';
import type { RestClient } from '../../api/rest-client';
import { DEFAULT_TENANTS_QUERY } from '../../domain/tenants-query';
import type { OpenSink, SheetSink } from '../reports/sheet-stream';
import {
  assertFullCoverage,
  exploreCoverage,
  formatCoverage,
  idleCallback,
  type GraphEvent,
} from '../test-support/graph-coverage';
import { auditRecord, fakeAuditApi } from '../test-support/fake-audit-api';
import { deferred, fakeServer, json } from '../test-support/fake-fetch';
import { defaultAuditQuery } from '../audit/audit-query';
import { DEFAULT_QUERY } from '../users/users-query';
import {
  auditFileName,
  listExportMachine,
  selectListExportOutcome,
  type ListExportRequest,
} from './list-export.machine';

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

const CSV = '\uFEFFid;nome\r\n2;Ana\r\n3;Bia\r\n';
const csvAnswer = (file: string) =>
  new Response(CSV, {
    status: 200,
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${file}"` },
  });

type StreamInput = { rest: RestClient; request: ListExportRequest; openSink: OpenSink };

describe('listExportMachine: model coverage', () => {
  it('every state and transition, the stream running exactly while busy', async () => {
    const sink = memorySink().sink;
    const events: GraphEvent<typeof listExportMachine>[] = [
      { type: 'export.start', request: { list: 'tenants', query: DEFAULT_TENANTS_QUERY }, openSink: () => sink },
      { type: 'export.opened', file: { name: 'empresas.csv', type: 'text/csv' } },
      { type: 'export.progress', progress: { bytes: 120, rows: 2 } },
      { type: 'export.finished', progress: { bytes: 240, rows: 4 } },
      { type: 'export.failed', error: new TypeError('Failed to fetch') },
      { type: 'export.cancel' },
    ];
    const report = await exploreCoverage({
      machine: listExportMachine.provide({ actors: { streamList: idleCallback<EventObject, StreamInput>() } }),
      input: () => ({ rest: fakeServer(() => json(500, {})).rest }),
      events,
      onStep: ({ actor }) => {
        const snapshot = actor.getSnapshot();
        expect(Object.keys(snapshot.children)).toEqual(snapshot.hasTag('busy') ? ['streamList'] : []);
      },
    });
    assertFullCoverage(report);
    console.info(`listExportMachine: ${formatCoverage(report)}`);
  });
});

describe('listExportMachine', () => {
  it("streams the users list's export with the address's filters and sort, under the server's file name", async () => {
    const server = fakeServer(() => csvAnswer('usuarios-farmacia.csv'));
    const actor = createActor(listExportMachine, { input: { rest: server.rest } }).start();
    const out = memorySink();
    const query = {
      ...DEFAULT_QUERY,
      q: ' ana ',
      role: 2,
      department: 'none' as const,
      online: false,
      sort: 'email' as const,
    };
    actor.send({
      type: 'export.start',
      request: { list: 'users', query, tenantName: 'farmacia' },
      openSink: () => out.sink,
    });
    await vi.waitFor(() => expect(selectListExportOutcome(actor.getSnapshot())).toBe('done'));
    const seen = server.seen[0]!;
    expect(seen.path).toBe('/api/users/export');
    expect(seen.headers.get('Accept')).toBe('text/csv');
    expect(Object.fromEntries(seen.query)).toEqual({
      q: 'ana',
      role: '2',
      department: 'none',
      online: 'false',
      sort: 'email',
      dir: 'asc',
      tenantName: 'farmacia',
    });
    expect(out.text()).toBe(CSV);
    expect(out.state.closed).toBe(true);
    expect(actor.getSnapshot().context.progress.rows).toBe(2);
    expect(actor.getSnapshot().context.file?.name).toBe('usuarios-farmacia.csv');
  });

  it("streams the tenants list's export with its filters; a refusal fails with its reason and never opens the sink", async () => {
    const server = fakeServer((r) =>
      r.query.get('plan') === 'enterprise'
        ? json(403, { message: 'Forbidden', required_permission: ['tenants'] })
        : csvAnswer('empresas.csv'),
    );
    const actor = createActor(listExportMachine, { input: { rest: server.rest } }).start();
    const out = memorySink();
    const query = {
      ...DEFAULT_TENANTS_QUERY,
      plan: 'starter' as const,
      feature: 'chat',
      featureEnabled: false,
      deleted: 'only' as const,
    };
    actor.send({ type: 'export.start', request: { list: 'tenants', query }, openSink: () => out.sink });
    await vi.waitFor(() => expect(selectListExportOutcome(actor.getSnapshot())).toBe('done'));
    expect(server.seen[0]!.path).toBe('/api/tenant/export');
    expect(Object.fromEntries(server.seen[0]!.query)).toEqual({
      search: '',
      sort_name: 'id',
      sort_type: 'DESC',
      deleted: 'only',
      plan: 'starter',
      feature: 'chat',
      feature_enabled: 'false',
    });
    const refused = memorySink();
    let opened = false;
    actor.send({
      type: 'export.start',
      request: { list: 'tenants', query: { ...query, plan: 'enterprise' } },
      openSink: () => {
        opened = true;
        return refused.sink;
      },
    });
    await vi.waitFor(() => expect(selectListExportOutcome(actor.getSnapshot())).toBe('failed'));
    expect(opened).toBe(false);
    expect(actor.getSnapshot().context.error).toEqual({ key: 'lists.export.failed', reason: 'apiErrors.forbidden' });
  });
});

describe('listExportMachine: the audit log', () => {
  it('shortest, simple and per-edge paths reach every state and transition, the stream running exactly while busy', async () => {
    const sink = memorySink().sink;
    // The stream's reports are the walk's events; the stand-in stream reports nothing by itself.
    const events: GraphEvent<typeof listExportMachine>[] = [
      { type: 'export.start', request: { list: 'audit', query: defaultAuditQuery() }, openSink: () => sink },
      { type: 'export.opened', file: { name: 'auditoria.csv', type: 'text/csv' } },
      { type: 'export.progress', progress: { bytes: 120, rows: 2 } },
      { type: 'export.finished', progress: { bytes: 240, rows: 4 } },
      { type: 'export.failed', error: new TypeError('Failed to fetch') },
      { type: 'export.cancel' },
    ];
    const report = await exploreCoverage({
      machine: listExportMachine.provide({ actors: { streamList: idleCallback<EventObject, StreamInput>() } }),
      input: () => ({ rest: fakeServer(() => json(500, {})).rest }),
      events,
      onStep: ({ actor }) => {
        const snapshot = actor.getSnapshot();
        // One download at a time, and none left running once it ended (cancel stops the stream).
        expect(Object.keys(snapshot.children)).toEqual(snapshot.hasTag('busy') ? ['streamList'] : []);
      },
    });
    assertFullCoverage(report);
    console.info(`listExportMachine (audit): ${formatCoverage(report)}`);
  });

  it('streams the CSV of the filters (Accept text/csv, no cursor) into the sink and counts the rows', async () => {
    const api = fakeAuditApi([auditRecord(1), auditRecord(2, { operation: 'user.create', target_name: 'Olívia' })]);
    const server = fakeServer(api.respond);
    const actor = createActor(listExportMachine, { input: { rest: server.rest } }).start();
    const out = memorySink();
    actor.send({
      type: 'export.start',
      request: { list: 'audit', query: { ...defaultAuditQuery(), operation: 'user.create' } },
      openSink: () => out.sink,
    });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await vi.waitFor(() => expect(selectListExportOutcome(actor.getSnapshot())).toBe('done'));
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
    const actor = createActor(listExportMachine, { input: { rest: refused.rest } }).start();
    const opened = vi.fn();
    const request: ListExportRequest = { list: 'audit', query: defaultAuditQuery() };
    actor.send({ type: 'export.start', request, openSink: opened });
    await vi.waitFor(() => expect(selectListExportOutcome(actor.getSnapshot())).toBe('failed'));
    expect(actor.getSnapshot().context.error).toEqual({ key: 'audit.errors.export', reason: 'apiErrors.forbidden' });
    expect(opened).not.toHaveBeenCalled();

    const held = deferred<Response>();
    const slow = fakeServer(() => held.promise);
    const second = createActor(listExportMachine, { input: { rest: slow.rest } }).start();
    second.send({ type: 'export.start', request, openSink: opened });
    second.send({ type: 'export.cancel' });
    expect(selectListExportOutcome(second.getSnapshot())).toBe('cancelled');
    expect(slow.seen[0]?.signal.aborted).toBe(true);
  });
});
