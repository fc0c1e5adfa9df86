import { createActor } from 'xstate';
import { ApiError } from '../api/api-error';
import { roleCreateProblems, rolesMachine, type Role } from './roles.machine';
import { assertFullCoverage, doneEvent, errorEvent, exploreCoverage, formatCoverage, heldPromise } from './test-support/graph-coverage';
import { fakeServer, flush, json } from './test-support/fake-fetch';

const role = (id: number, name: string, display_name = name): Role => ({ id, name, display_name, has_permission_routes: [] });
const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

describe('rolesMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: rolesMachine.provide({ actors: { loadRoles: heldPromise(), createRole: heldPromise() } }),
      input: () => ({ rest: unused.rest }),
      events: [
        doneEvent('loadRoles', [role(1, 'administrador')]),
        errorEvent('loadRoles', new ApiError(403, null)),
        { type: 'roles.reload' },
        { type: 'roles.create', name: 'supervisor', displayName: 'Supervisor' },
        { type: 'roles.create', name: 'Bad Name', displayName: '' },
        doneEvent('createRole', role(3, 'supervisor')),
        errorEvent('createRole', new ApiError(409, { message: 'exists', field: 'name' })),
      ],
    });
    assertFullCoverage(report);
    console.info(`rolesMachine: ${formatCoverage(report)}`);
  });
});

describe('rolesMachine: against the REST contract', () => {
  it('lists with GET /api/roles and creates with POST /api/roles, showing refusals per field', async () => {
    let conflict = true;
    const fake = fakeServer((r) => {
      if (r.method === 'GET') return json(200, [role(1, 'administrador', 'Administrador')]);
      return conflict ? json(409, { message: 'A role with this name already exists', field: 'name' }) : json(201, role(3, 'supervisor', 'Supervisor'));
    });
    const actor = createActor(rolesMachine, { input: { rest: fake.rest } }).start();
    await flush();
    expect(fake.seen[0]?.path).toBe('/api/roles');
    expect(actor.getSnapshot().context.roles.map((r) => r.name)).toEqual(['administrador']);
    actor.send({ type: 'roles.create', name: 'Super Visor', displayName: ' ' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ name: 'roles.errors.name', display_name: 'roles.errors.displayName' });
    expect(fake.seen).toHaveLength(1);
    actor.send({ type: 'roles.create', name: 'supervisor', displayName: ' Supervisor ' });
    await flush();
    expect(fake.seen[1]?.body).toEqual({ name: 'supervisor', display_name: 'Supervisor' });
    expect(actor.getSnapshot().context.actionError).toEqual({ key: 'roles.errors.create', reason: 'apiErrors.conflict' });
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
