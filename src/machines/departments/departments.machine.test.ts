import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
} from '../test-support/graph-coverage';
import { fakeServer, flush, json } from '../test-support/fake-fetch';
import type { Outcome } from '../shared/outcome';
import { departmentsMachine, type DepartmentAction, type Department } from './departments.machine';

const department = (id: number, name: string, activated = true): Department => ({ id, name, activated, version: 1 });
const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

describe('departmentsMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: departmentsMachine.provide({
        actors: { loadRecords: heldPromise(), saveRecord: heldPromise() },
      }),
      input: () => ({ rest: unused.rest, tenantName: 'farmacia-central' }),
      // The guards read the list and the open dialog.
      serializeContext: (context) => `${context.records.length}:${context.dialog?.kind ?? '-'}`,
      events: [
        doneEvent('loadRecords', [department(1, 'Atendimento'), department(2, 'Financeiro', false)]),
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
