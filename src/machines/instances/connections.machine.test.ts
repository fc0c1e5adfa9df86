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
import { connection, TENANT } from '../test-support/instances-fixtures';
import type { Outcome } from '../shared/outcome';
import { connectionNameProblems, connectionsMachine, type ConnectionAction } from './connections.machine';

const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});
const list = [connection(1, 1, { name: 'Balcão' }), connection(2, 2, { name: 'Caixa' })];

describe('connectionsMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: connectionsMachine.provide({ actors: { saveConnection: heldPromise() } }),
      input: () => ({ rest: unused.rest, tenantName: TENANT }),
      // The guards read the list and the open dialog.
      serializeContext: (context: { connections: unknown[]; dialog: { kind: string } | null }) =>
        `${context.connections.length}:${context.dialog?.kind ?? '-'}`,
      events: [
        { type: 'connections.set', connections: list },
        { type: 'connections.createOpen', instanceId: 1, instanceName: 'WhatsApp Loja 1' },
        { type: 'connections.renameOpen', id: 2 },
        { type: 'connections.close' },
        { type: 'connections.submit', name: 'Nova' },
        { type: 'connections.submit', name: ' ' },
        { type: 'connections.activate', id: 1, activated: false },
        doneEvent('saveConnection', connection(3, 1, { name: 'Nova' })),
        errorEvent('saveConnection', new ApiError(409, { message: 'exists', field: 'name' })),
      ],
    });
    assertFullCoverage(report);
    console.info(`connectionsMachine: ${formatCoverage(report)}`);
  });
});

describe('connectionsMachine: against the REST contract', () => {
  it('names are unique per instance: the same name on another instance is fine', () => {
    expect(connectionNameProblems('CAIXA', list, 2)).toEqual({ name: 'instances.connections.errors.nameTaken' });
    expect(connectionNameProblems('CAIXA', list, 1)).toEqual({});
    expect(connectionNameProblems('Caixa', list, 2, 2)).toEqual({});
    expect(connectionNameProblems('x'.repeat(81), list, 1)).toEqual({
      name: 'instances.connections.errors.nameTooLong',
    });
  });

  it('shows a 409 on the name field, keeps the dialog and the list; a 404 on activation toasts and drops the row', async () => {
    const fake = fakeServer((r) =>
      r.path === '/api/connection'
        ? json(409, { message: 'A connection with this name already exists', field: 'name' })
        : json(404, { message: 'Connection not found' }),
    );
    const actor = createActor(connectionsMachine, { input: { rest: fake.rest, tenantName: TENANT } });
    const outcomes: Outcome<ConnectionAction>[] = [];
    actor.on('outcome', (o) => outcomes.push(o));
    actor.start();
    actor.send({ type: 'connections.set', connections: list });
    actor.send({ type: 'connections.createOpen', instanceId: 1, instanceName: 'WhatsApp Loja 1' });
    actor.send({ type: 'connections.submit', name: 'Outra' });
    await flush();
    expect(fake.seen[0]?.body).toEqual({ tenantName: TENANT, instance_id: 1, name: 'Outra' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ name: 'instances.connections.errors.nameTaken' });
    expect(actor.getSnapshot().context.dialog).toMatchObject({ kind: 'create', instanceId: 1 });
    actor.send({ type: 'connections.close' });
    actor.send({ type: 'connections.activate', id: 2, activated: false });
    await flush();
    expect(fake.seen[1]).toMatchObject({
      path: '/api/connection/update',
      body: { tenantName: TENANT, id: 2, activated: false },
    });
    expect(outcomes.map((o) => [o.action, o.ok, o.toast?.description])).toEqual([
      ['create', false, undefined],
      ['activate', false, { key: 'apiErrors.notFound' }],
    ]);
    expect(actor.getSnapshot().context.connections.map((c) => c.id)).toEqual([1]);
  });
});
