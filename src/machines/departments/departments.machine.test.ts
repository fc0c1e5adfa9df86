import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
  idleCallback,
} from '../test-support/graph-coverage';
import type { GraphEvent } from '../test-support/graph-paths';
import { fakeServer, flush, json } from '../test-support/fake-fetch';
import type { Outcome } from '../shared/outcome';
import { createAppBus, type BusMessageOf } from '../shared/app-bus';
import { renameStep, unsavedName } from '../shared/named-records.machine';
import { departmentsMachine, type DepartmentAction, type Department } from './departments.machine';

const department = (id: number, name: string, activated = true): Department => ({ id, name, activated, version: 1 });
const renamedElsewhere: Department = { ...department(2, 'Financeiro e contas', false), version: 2 };
const staleBody = {
  error: 'stale',
  message: 'changed since',
  field: 'version',
  version: 2,
  changes: [
    {
      id: 41,
      at: '2026-11-28T10:00:00.000Z',
      actor_name: 'Outra Pessoa',
      actor_staff: false,
      operation: 'department.update',
      changes: [{ field: 'name', before: '"Financeiro"', after: '"Financeiro e contas"' }],
    },
  ],
};
type Ev = GraphEvent<typeof departmentsMachine>;
const loaded: Ev = doneEvent('loadRecords', [department(1, 'Atendimento'), department(2, 'Financeiro', false)]);
const listEvents: Ev[] = [
  loaded,
  errorEvent('loadRecords', new ApiError(403, null)),
  { type: 'records.reload' },
  { type: 'records.createOpen', scope: null },
  { type: 'records.renameOpen', id: 2 },
  { type: 'records.close' },
  { type: 'records.submit', name: 'Compras' },
  { type: 'records.submit', name: ' atendimento ' },
  { type: 'records.activate', id: 2, activated: true },
  doneEvent('saveRecord', department(3, 'Compras')),
  errorEvent('saveRecord', new ApiError(409, { message: 'exists', field: 'name' })),
];
// The rename dialog's conflict notice (src/machines/shared/conflict.ts).
const typed: Ev[] = [loaded, { type: 'records.renameOpen', id: 2 }, { type: 'records.draft', name: 'Cobrança' }];
const saveEvents: Ev[] = [
  errorEvent('saveRecord', new ApiError(409, staleBody)),
  errorEvent('saveRecord', new ApiError(503, null)),
  { type: 'conflict.remote', id: 43, version: null },
];
const liveEvents: Ev[] = [
  { type: 'conflict.remote', id: 41, version: null },
  // The dialog's own version: not news.
  { type: 'conflict.remote', id: 42, version: 1 },
  doneEvent('checkRemote', { record: renamedElsewhere, version: 2, newer: true, changes: [] }),
  doneEvent('checkRemote', { record: department(2, 'Financeiro', false), version: 1, newer: false, changes: [] }),
  errorEvent('checkRemote', new TypeError('offline')),
  { type: 'records.submit', name: 'Cobrança' },
  { type: 'conflict.dismiss' },
];
const choiceEvents: Ev[] = [
  // A name another department holds: the reapply goes back to the dialog.
  { type: 'records.draft', name: 'atendimento' },
  { type: 'conflict.reapply' },
  { type: 'conflict.discard' },
  { type: 'records.close' },
  doneEvent('loadRecord', renamedElsewhere),
  errorEvent('loadRecord', new ApiError(503, null)),
];
const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

describe('departmentsMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: departmentsMachine.provide({
        actors: {
          loadRecords: heldPromise(),
          saveRecord: heldPromise(),
          loadRecord: heldPromise(),
          checkRemote: heldPromise(),
          watchTarget: idleCallback(),
        },
      }),
      input: () => ({ rest: unused.rest, tenantName: 'farmacia-central' }),
      // The guards read the list, the open dialog, the name typed, the version and what is pending.
      serializeContext: (c) =>
        [
          c.records.length,
          c.dialog?.kind ?? '-',
          c.draft ?? '-',
          c.version,
          c.pending?.kind ?? '-',
          c.remoteIds.length,
          c.conflict ? 'c' : '-',
        ].join(':'),
      events: [...listEvents, ...saveEvents, ...liveEvents, ...choiceEvents],
      simpleScenarios: [
        { events: listEvents.filter((e) => e.type !== 'records.renameOpen') },
        { prefix: [loaded, { type: 'records.renameOpen', id: 2 }], events: listEvents.slice(5) },
        // A rename sent: refused as stale, or for another reason; then both choices.
        {
          prefix: [...typed, { type: 'records.submit', name: 'Cobrança' }],
          events: [...saveEvents, ...choiceEvents],
        },
        // A change announced while a name is typed, or while none is.
        { prefix: typed, events: liveEvents },
        { prefix: [loaded, { type: 'records.renameOpen', id: 2 }], events: liveEvents },
      ],
    });
    assertFullCoverage(report);
    console.info(`departmentsMachine: ${formatCoverage(report)}`);
  });
});

describe('departmentsMachine: against the REST contract', () => {
  function start(respond: Parameters<typeof fakeServer>[0]) {
    const fake = fakeServer(respond);
    const actor = createActor(departmentsMachine, { input: { rest: fake.rest, tenantName: 'farmacia-central' } });
    const outcomes: Outcome<DepartmentAction>[] = [];
    actor.on('outcome', (o) => outcomes.push(o));
    actor.start();
    return { fake, actor, outcomes };
  }

  it('lists the address tenant by name and refuses a blank, long or taken name without a request', async () => {
    const { fake, actor } = start(() => json(200, [department(2, 'Financeiro'), department(1, 'Atendimento')]));
    await flush();
    expect(fake.seen[0]?.path).toBe('/api/departments');
    expect(fake.seen[0]?.query.get('tenantName')).toBe('farmacia-central');
    expect(actor.getSnapshot().context.records.map((d) => d.name)).toEqual(['Atendimento', 'Financeiro']);
    actor.send({ type: 'records.createOpen', scope: null });
    actor.send({ type: 'records.submit', name: '   ' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ name: 'departments.errors.nameRequired' });
    actor.send({ type: 'records.submit', name: 'x'.repeat(81) });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ name: 'departments.errors.nameTooLong' });
    actor.send({ type: 'records.submit', name: 'FINANCEIRO' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ name: 'departments.errors.nameTaken' });
    actor.send({ type: 'records.renameOpen', id: 1 });
    actor.send({ type: 'records.submit', name: 'financeiro' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ name: 'departments.errors.nameTaken' });
    expect(fake.seen).toHaveLength(1);
  });

  it('creates with POST, renames and (de)activates with PATCH, each outcome toasted with the name', async () => {
    const { fake, actor, outcomes } = start((r) => {
      if (r.method === 'GET') return json(200, [department(1, 'Atendimento')]);
      if (r.method === 'POST') return json(201, department(5, (r.body as { name: string }).name));
      const body = r.body as { name?: string; activated?: boolean };
      return json(200, department(1, body.name ?? 'Atendimento', body.activated ?? true));
    });
    await flush();
    actor.send({ type: 'records.createOpen', scope: null });
    actor.send({ type: 'records.submit', name: ' Compras ' });
    await flush();
    expect(actor.getSnapshot().context.dialog).toBeNull();
    expect(fake.seen[1]).toMatchObject({ method: 'POST', path: '/api/departments', body: { name: 'Compras' } });
    actor.send({ type: 'records.renameOpen', id: 1 });
    actor.send({ type: 'records.submit', name: 'Atendimento ao cliente' });
    await flush();
    expect(fake.seen[2]).toMatchObject({
      method: 'PATCH',
      path: '/api/departments/1',
      body: { name: 'Atendimento ao cliente' },
    });
    actor.send({ type: 'records.activate', id: 1, activated: false });
    await flush();
    expect(fake.seen[3]).toMatchObject({ method: 'PATCH', body: { activated: false } });
    expect(outcomes.map((o) => [o.action, o.ok, o.toast?.title])).toEqual([
      ['create', true, { key: 'departments.notices.created', params: { name: 'Compras' } }],
      ['rename', true, { key: 'departments.notices.renamed', params: { name: 'Atendimento ao cliente' } }],
      ['activate', true, { key: 'departments.notices.deactivated', params: { name: 'Atendimento' } }],
    ]);
    expect(actor.getSnapshot().context.records).toEqual([
      department(1, 'Atendimento', false),
      department(5, 'Compras'),
    ]);
  });

  it('shows a duplicate the server refuses (409) on the name field and keeps the list', async () => {
    const { actor, outcomes } = start((r) =>
      r.method === 'GET'
        ? json(200, [department(1, 'Atendimento')])
        : json(409, { message: 'A department with this name already exists', field: 'name' }),
    );
    await flush();
    actor.send({ type: 'records.createOpen', scope: null });
    actor.send({ type: 'records.submit', name: 'Compras' });
    await flush();
    expect(actor.getSnapshot().context.dialog).toEqual({ kind: 'create', scope: null });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ name: 'departments.errors.nameTaken' });
    expect(actor.getSnapshot().context.actionError).toEqual({
      key: 'departments.errors.create',
      reason: 'apiErrors.conflict',
    });
    expect(outcomes).toEqual([{ type: 'outcome', action: 'create', ok: false, toast: null }]);
    expect(actor.getSnapshot().context.records).toEqual([department(1, 'Atendimento')]);
  });

  it('toasts a refused activation and drops a department that no longer exists (404)', async () => {
    const { actor, outcomes } = start((r) =>
      r.method === 'GET'
        ? json(200, [department(1, 'Atendimento'), department(2, 'Financeiro')])
        : json(404, { message: 'Department not found' }),
    );
    await flush();
    actor.send({ type: 'records.activate', id: 2, activated: false });
    await flush();
    expect(outcomes[0]).toMatchObject({
      action: 'activate',
      ok: false,
      toast: {
        variant: 'error',
        title: { key: 'departments.errors.activate' },
        description: { key: 'apiErrors.notFound' },
      },
    });
    expect(actor.getSnapshot().context.records.map((d) => d.id)).toEqual([1]);
  });
});

/**
 * The rename dialog's conflict notice (docs/lists.md, Conflict notice) against a fake that keeps versions as
 * the server does: a PATCH with an older version answers 409 `stale` with the audited changes since.
 */
describe('departmentsMachine: the rename dialog’s conflict notice', () => {
  function versioned() {
    let stored: Department[] = [department(1, 'Atendimento'), department(2, 'Financeiro')];
    const audit: Record<string, unknown>[] = [];
    const patches: Record<string, unknown>[] = [];
    const rename = (id: number, name: string, actor: string) => {
      const before = stored.find((d) => d.id === id) as Department;
      const after = { ...before, name, version: before.version + 1 };
      stored = stored.map((d) => (d.id === id ? after : d));
      audit.push({
        id: 60 + audit.length,
        at: '2026-11-28T10:00:00.000Z',
        actor_name: actor,
        actor_staff: false,
        operation: 'department.update',
        target_type: 'department',
        target_id: id,
        target_version: after.version,
        changes: [{ field: 'name', before: JSON.stringify(before.name), after: JSON.stringify(name) }],
      });
      return after;
    };
    const fake = fakeServer((r) => {
      if (r.path === '/api/departments' && r.method === 'GET') return json(200, stored);
      if (r.path === '/api/audit') return json(200, { data: [...audit].reverse(), total: audit.length });
      if (r.method === 'PATCH') {
        const body = r.body as { name: string; version?: number };
        patches.push(body);
        const current = stored.find((d) => d.id === 2) as Department;
        if (body.version !== undefined && body.version !== current.version)
          return json(409, {
            error: 'stale',
            message: 'changed since',
            field: 'version',
            version: current.version,
            changes: audit.filter((a) => (a.target_version as number) > (body.version ?? 0)),
          });
        return json(200, rename(2, body.name, 'Eu'));
      }
      throw new Error(`unexpected ${r.method} ${r.path}`);
    });
    return { fake, patches, otherRenames: () => rename(2, 'Financeiro e contas', 'Outra Pessoa') };
  }
  const announce = (bus: ReturnType<typeof createAppBus>, id: number, targetVersion: number) =>
    bus.publish({
      name: 'auditRecorded',
      tenantName: 'farmacia-central',
      sentAt: '2026-11-28T10:00:00.000Z',
      data: {
        id,
        at: '2026-11-28T10:00:00.000Z',
        operation: 'department.update',
        targetType: 'department',
        targetId: 2,
        targetName: 'Financeiro e contas',
        targetVersion,
      } as BusMessageOf<'auditRecorded'>['data'],
    });

  it('a stale rename shows the other change; reapply sends the typed name with the new version', async () => {
    const server = versioned();
    const actor = createActor(departmentsMachine, {
      input: { rest: server.fake.rest, tenantName: 'farmacia-central' },
    }).start();
    await flush();
    actor.send({ type: 'records.renameOpen', id: 2 });
    server.otherRenames();
    actor.send({ type: 'records.draft', name: 'Cobrança' });
    actor.send({ type: 'records.submit', name: 'Cobrança' });
    await flush();
    expect(server.patches[0]).toEqual({ name: 'Cobrança', version: 1 });
    const snapshot = actor.getSnapshot();
    expect(renameStep(snapshot)).toBe('conflict');
    expect(snapshot.context.conflict).toMatchObject({ source: 'save', kept: true, version: 2 });
    expect(snapshot.context.conflict?.changes[0]).toMatchObject({
      actorName: 'Outra Pessoa',
      changes: [{ field: 'name', before: '"Financeiro"', after: '"Financeiro e contas"' }],
    });
    expect(unsavedName(snapshot.context)).toEqual([{ field: 'name', before: '"Financeiro"', after: '"Cobrança"' }]);
    actor.send({ type: 'conflict.reapply' });
    await flush();
    expect(server.patches[1]).toEqual({ name: 'Cobrança', version: 2 });
    expect(renameStep(actor.getSnapshot())).toBe('idle');
    expect(actor.getSnapshot().context.dialog).toBeNull();
    expect(actor.getSnapshot().context.records.find((d) => d.id === 2)).toMatchObject({ name: 'Cobrança', version: 3 });
  });

  it('discard reloads the department as stored now and sends nothing', async () => {
    const server = versioned();
    const actor = createActor(departmentsMachine, {
      input: { rest: server.fake.rest, tenantName: 'farmacia-central' },
    }).start();
    await flush();
    actor.send({ type: 'records.renameOpen', id: 2 });
    server.otherRenames();
    actor.send({ type: 'records.submit', name: 'Cobrança' });
    await flush();
    actor.send({ type: 'conflict.discard' });
    await flush();
    const { context } = actor.getSnapshot();
    expect(renameStep(actor.getSnapshot())).toBe('renaming');
    expect(context.dialog).toMatchObject({ kind: 'rename', record: { name: 'Financeiro e contas', version: 2 } });
    expect(context.version).toBe(2);
    expect(context.conflict).toBeNull();
    expect(server.patches).toHaveLength(1);
  });

  it('a change announced while a name is typed opens the notice at once; with nothing typed it reloads and says so', async () => {
    const server = versioned();
    const bus = createAppBus();
    const actor = createActor(departmentsMachine, {
      input: { rest: server.fake.rest, tenantName: 'farmacia-central', bus },
    }).start();
    await flush();
    actor.send({ type: 'records.renameOpen', id: 2 });
    // Its own version announced: not news, nothing read.
    const before = server.fake.seen.length;
    announce(bus, 50, 1);
    await flush();
    expect(server.fake.seen).toHaveLength(before);
    server.otherRenames();
    announce(bus, 60, 2);
    await flush();
    let snapshot = actor.getSnapshot();
    expect(renameStep(snapshot)).toBe('renaming');
    expect(snapshot.context.conflict).toMatchObject({ source: 'live', kept: false });
    expect(snapshot.context.dialog).toMatchObject({ record: { name: 'Financeiro e contas' } });
    expect(snapshot.context.formKey).toBe(1);
    actor.send({ type: 'conflict.dismiss' });
    actor.send({ type: 'records.draft', name: 'Cobrança' });
    // A second change, with a name typed now.
    server.otherRenames();
    announce(bus, 61, 3);
    await flush();
    snapshot = actor.getSnapshot();
    expect(renameStep(snapshot)).toBe('conflict');
    expect(snapshot.context.conflict).toMatchObject({ source: 'live', kept: true, version: 3 });
    expect(snapshot.context.conflict?.changes.map((c) => c.id)).toEqual([61]);
    expect(server.patches).toHaveLength(0);
  });
});
