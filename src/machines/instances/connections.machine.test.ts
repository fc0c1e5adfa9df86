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
import { connectionsMachine, type ConnectionAction, type ConnectionsActor } from './connections.machine';

const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});
const list = [connection(1, 1, { name: 'Balcão' }), connection(2, 2, { name: 'Caixa' })];

describe('connectionsMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: connectionsMachine.provide({ actors: { saveRecord: heldPromise() } }),
      input: () => ({ rest: unused.rest, tenantName: TENANT }),
      // The guards read the list and the open dialog.
      serializeContext: (context) => `${context.records.length}:${context.dialog?.kind ?? '-'}`,
      events: [
        { type: 'records.set', records: list },
        { type: 'records.createOpen', scope: { instanceId: 1, instanceName: 'WhatsApp Loja 1' } },
        { type: 'records.renameOpen', id: 2 },
        { type: 'records.close' },
        { type: 'records.submit', name: 'Nova' },
        { type: 'records.submit', name: ' ' },
        { type: 'records.activate', id: 1, activated: false },
        doneEvent('saveRecord', connection(3, 1, { name: 'Nova' })),
        errorEvent('saveRecord', new ApiError(409, { message: 'exists', field: 'name' })),
      ],
    });
    assertFullCoverage(report);
    console.info(`connectionsMachine: ${formatCoverage(report)}`);
  });
});

describe('connectionsMachine: against the REST contract', () => {
  it('names are unique per instance: the same name on another instance is fine', () => {
    /** The field errors of `name` submitted in a dialog opened by `open`, and whether it was sent. */
    const submit = (open: Parameters<ConnectionsActor['send']>[0], name: string) => {
      const held = createActor(connectionsMachine.provide({ actors: { saveRecord: heldPromise() } }), {
        input: { rest: unused.rest, tenantName: TENANT },
      }).start();
      held.send({ type: 'records.set', records: list });
      held.send(open);
      held.send({ type: 'records.submit', name });
      const { fieldErrors } = held.getSnapshot().context;
      const sent = held.getSnapshot().hasTag('busy');
      held.stop();
      return { fieldErrors, sent };
    };
    const onInstance = (instanceId: number) =>
      ({ type: 'records.createOpen', scope: { instanceId, instanceName: `Instância ${instanceId}` } }) as const;
    expect(submit(onInstance(2), 'CAIXA')).toEqual({
      fieldErrors: { name: 'instances.connections.errors.nameTaken' },
      sent: false,
    });
    expect(submit(onInstance(1), 'CAIXA')).toEqual({ fieldErrors: {}, sent: true });
    expect(submit({ type: 'records.renameOpen', id: 2 }, 'Caixa')).toEqual({ fieldErrors: {}, sent: true });
    expect(submit(onInstance(1), 'x'.repeat(81))).toEqual({
      fieldErrors: { name: 'instances.connections.errors.nameTooLong' },
      sent: false,
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
    actor.send({ type: 'records.set', records: list });
    actor.send({ type: 'records.createOpen', scope: { instanceId: 1, instanceName: 'WhatsApp Loja 1' } });
    actor.send({ type: 'records.submit', name: 'Outra' });
    await flush();
    expect(fake.seen[0]?.body).toEqual({ tenantName: TENANT, instance_id: 1, name: 'Outra' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ name: 'instances.connections.errors.nameTaken' });
    expect(actor.getSnapshot().context.dialog).toMatchObject({ kind: 'create', scope: { instanceId: 1 } });
    actor.send({ type: 'records.close' });
    actor.send({ type: 'records.activate', id: 2, activated: false });
    await flush();
    expect(fake.seen[1]).toMatchObject({
      path: '/api/connection/update',
      body: { tenantName: TENANT, id: 2, activated: false },
    });
    expect(outcomes.map((o) => [o.action, o.ok, o.toast?.description])).toEqual([
      ['create', false, undefined],
      ['activate', false, { key: 'apiErrors.notFound' }],
    ]);
    expect(actor.getSnapshot().context.records.map((c) => c.id)).toEqual([1]);
  });
});
