import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import { roleCreateProblems, rolesMachine, type Role } from './roles.machine';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
} from '../test-support/graph-coverage';
import { fakeServer, flush, json } from '../test-support/fake-fetch';

const role = (id: number, name: string, display_name = name): Role => ({
  id,
  name,
  display_name,
  has_permission_routes: [],
  version: 1,
});
const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

describe('rolesMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: rolesMachine.provide({
        actors: {
          loadRoles: heldPromise(),
          createRole: heldPromise(),
          renameRole: heldPromise(),
          deleteRole: heldPromise(),
        },
      }),
      input: () => ({ rest: unused.rest }),
      events: [
        doneEvent('loadRoles', [role(1, 'administrador'), role(2, 'operador')]),
        errorEvent('loadRoles', new ApiError(403, null)),
        { type: 'roles.reload' },
        { type: 'roles.create', name: 'supervisor', displayName: 'Supervisor' },
        { type: 'roles.create', name: 'Bad Name', displayName: '' },
        doneEvent('createRole', role(3, 'supervisor')),
        errorEvent('createRole', new ApiError(409, { message: 'exists', field: 'name' })),
        { type: 'roles.rename', id: 2, displayName: 'Operador de loja' },
        { type: 'roles.rename', id: 1, displayName: 'Chefe' },
        doneEvent('renameRole', role(2, 'operador', 'Operador de loja')),
        errorEvent(
          'renameRole',
          new ApiError(400, { message: 'bad', errors: [{ field: 'display_name', message: 'too long' }] }),
        ),
        { type: 'roles.delete', id: 2 },
        { type: 'roles.delete', id: 1 },
        doneEvent('deleteRole', undefined),
        errorEvent('deleteRole', new ApiError(409, { message: 'held', field: 'id' })),
      ],
    });
    assertFullCoverage(report);
    console.info(`rolesMachine: ${formatCoverage(report)}`);
  });
});

describe('rolesMachine: against the REST contract', () => {
  it('renames with PUT /api/roles/{id}, never the administrador, and says why a rename failed', async () => {
    let fail = true;
    const fake = fakeServer((r) => {
      if (r.method === 'GET')
        return json(200, [role(1, 'administrador', 'Administrador'), role(2, 'operador', 'Operador')]);
      if (fail) return json(503, { status: 'unavailable', message: 'down' });
      return json(200, role(2, 'operador', (r.body as { display_name: string }).display_name));
    });
    const actor = createActor(rolesMachine, { input: { rest: fake.rest } }).start();
    await flush();
    actor.send({ type: 'roles.rename', id: 1, displayName: 'Chefe' });
    actor.send({ type: 'roles.rename', id: 2, displayName: '   ' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ display_name: 'roles.errors.displayName' });
    expect(fake.seen).toHaveLength(1);
    actor.send({ type: 'roles.rename', id: 2, displayName: ' Operador de loja ' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await flush();
    expect(fake.seen[1]).toMatchObject({
      method: 'PUT',
      path: '/api/roles/2',
      body: { display_name: 'Operador de loja' },
    });
    expect(actor.getSnapshot().context.actionError).toEqual({
      key: 'roles.errors.rename',
      reason: 'apiErrors.unavailable',
    });
    fail = false;
    actor.send({ type: 'roles.rename', id: 2, displayName: 'Operador de loja' });
    await flush();
    expect(actor.getSnapshot().context.roles.map((r) => r.display_name)).toEqual(['Administrador', 'Operador de loja']);
    expect(actor.getSnapshot().context.notice).toBe('roles.notices.renamed');
    expect(actor.getSnapshot().context.actionError).toBeNull();
  });

  it('lists with GET /api/roles and creates with POST /api/roles, showing refusals per field', async () => {
    let conflict = true;
    const fake = fakeServer((r) => {
      if (r.method === 'GET') return json(200, [role(1, 'administrador', 'Administrador')]);
      return conflict
        ? json(409, { message: 'A role with this name already exists', field: 'name' })
        : json(201, role(3, 'supervisor', 'Supervisor'));
    });
    const actor = createActor(rolesMachine, { input: { rest: fake.rest } }).start();
    await flush();
    expect(fake.seen[0]?.path).toBe('/api/roles');
    expect(actor.getSnapshot().context.roles.map((r) => r.name)).toEqual(['administrador']);
    actor.send({ type: 'roles.create', name: 'Super Visor', displayName: ' ' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({
      name: 'roles.errors.name',
      display_name: 'roles.errors.displayName',
    });
    expect(fake.seen).toHaveLength(1);
    actor.send({ type: 'roles.create', name: 'supervisor', displayName: ' Supervisor ' });
    await flush();
    expect(fake.seen[1]?.body).toEqual({ name: 'supervisor', display_name: 'Supervisor' });
    expect(actor.getSnapshot().context.actionError).toEqual({
      key: 'roles.errors.create',
      reason: 'apiErrors.conflict',
    });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ name: 'apiErrors.fieldTaken' });
    conflict = false;
    actor.send({ type: 'roles.create', name: 'supervisor', displayName: 'Supervisor' });
    await flush();
    expect(actor.getSnapshot().context.roles.map((r) => r.name)).toEqual(['administrador', 'supervisor']);
    expect(actor.getSnapshot().context.notice).toBe('roles.notices.created');
    expect(actor.getSnapshot().context.actionError).toBeNull();
  });

  it('a failed list is empty and says why', async () => {
    const fake = fakeServer(() => json(403, { message: 'Forbidden' }));
    const actor = createActor(rolesMachine, { input: { rest: fake.rest } }).start();
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.listError).toEqual({ key: 'roles.errors.load', reason: 'apiErrors.forbidden' });
    expect(roleCreateProblems('ok_name', 'x'.repeat(81))).toEqual({ display_name: 'roles.errors.displayName' });
  });
});

describe('rolesMachine: deleting a role', () => {
  const roles = [role(1, 'administrador', 'Administrador'), role(2, 'operador', 'Operador'), role(3, 'caixa', 'Caixa')];

  it('deletes with DELETE /api/roles/{id} and drops the row; never the administrador', async () => {
    const fake = fakeServer((r) => (r.method === 'GET' ? json(200, roles) : json(200, { message: 'Deleted' })));
    const actor = createActor(rolesMachine, { input: { rest: fake.rest } }).start();
    await flush();
    actor.send({ type: 'roles.delete', id: 1 });
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    actor.send({ type: 'roles.delete', id: 3 });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await flush();
    expect(fake.seen[1]).toMatchObject({ method: 'DELETE', path: '/api/roles/3' });
    expect(fake.seen).toHaveLength(2);
    expect(actor.getSnapshot().context.roles.map((r) => r.id)).toEqual([1, 2]);
    expect(actor.getSnapshot().context.notice).toBe('roles.notices.deleted');
  });

  it('a role users hold (409) says so and keeps the list as it was', async () => {
    const fake = fakeServer((r) =>
      r.method === 'GET' ? json(200, roles) : json(409, { message: '1 user(s) hold this role', field: 'id' }),
    );
    const actor = createActor(rolesMachine, { input: { rest: fake.rest } }).start();
    await flush();
    actor.send({ type: 'roles.delete', id: 2 });
    await flush();
    expect(actor.getSnapshot().context.actionError).toEqual({
      key: 'roles.errors.delete',
      reason: 'roles.errors.inUse',
    });
    expect(actor.getSnapshot().context.roles).toEqual(roles);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
  });
});
