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
import { connection, TENANT } from '../test-support/instances-fixtures';
import { renameStep } from '../shared/named-records.machine';
import type { Outcome } from '../shared/outcome';
import { connectionsMachine, type ConnectionAction, type ConnectionsActor } from './connections.machine';

const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});
const list = [connection(1, 1, { name: 'Balcão' }), connection(2, 2, { name: 'Caixa' })];

type Ev = GraphEvent<typeof connectionsMachine>;
const set: Ev = { type: 'records.set', records: list };
const listEvents: Ev[] = [
  set,
  { type: 'records.createOpen', scope: { instanceId: 1, instanceName: 'WhatsApp Loja 1' } },
  { type: 'records.renameOpen', id: 2 },
  { type: 'records.close' },
  { type: 'records.submit', name: 'Nova' },
  { type: 'records.submit', name: ' ' },
  { type: 'records.activate', id: 1, activated: false },
  doneEvent('saveRecord', connection(3, 1, { name: 'Nova' })),
  errorEvent('saveRecord', new ApiError(409, { message: 'exists', field: 'name' })),
];
// The rename dialog's conflict notice (src/machines/shared/conflict.ts).
const renamedElsewhere = connection(2, 2, { name: 'Caixa 2', version: 2 });
const staleBody = { error: 'stale', message: 'changed since', field: 'version', version: 2, changes: [] };
const typed: Ev[] = [set, { type: 'records.renameOpen', id: 2 }, { type: 'records.draft', name: 'Recepção' }];
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
  doneEvent('checkRemote', { record: connection(2, 2, { name: 'Caixa' }), version: 1, newer: false, changes: [] }),
  errorEvent('checkRemote', new TypeError('offline')),
  { type: 'records.submit', name: 'Recepção' },
  { type: 'conflict.dismiss' },
];
const choiceEvents: Ev[] = [
  // A blank name: the reapply goes back to the dialog.
  { type: 'records.draft', name: ' ' },
  { type: 'conflict.reapply' },
  { type: 'conflict.discard' },
  { type: 'records.close' },
  doneEvent('loadRecord', renamedElsewhere),
  errorEvent('loadRecord', new ApiError(503, null)),
];

describe('connectionsMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: connectionsMachine.provide({
        actors: {
          saveRecord: heldPromise(),
          loadRecord: heldPromise(),
          checkRemote: heldPromise(),
          watchTarget: idleCallback(),
        },
      }),
      input: () => ({ rest: unused.rest, tenantName: TENANT }),
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
        { prefix: [set, { type: 'records.renameOpen', id: 2 }], events: listEvents.slice(3) },
        // A rename sent: refused as stale, or for another reason; then both choices.
        { prefix: [...typed, { type: 'records.submit', name: 'Recepção' }], events: [...saveEvents, ...choiceEvents] },
        // A change announced while a name is typed, or while none is.
        { prefix: typed, events: liveEvents },
        { prefix: [set, { type: 'records.renameOpen', id: 2 }], events: liveEvents },
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

  it('a rename sends the version its dialog loaded; a stale answer opens the notice and reapply sends the new one', async () => {
    let stored = connection(2, 2, { name: 'Caixa' });
    const bodies: Record<string, unknown>[] = [];
    const fake = fakeServer((r) => {
      if (r.method === 'GET' && r.path === '/api/connection') return json(200, [connection(1, 1), stored]);
      const body = r.body as { name: string; version?: number };
      bodies.push(body);
      if (body.version !== stored.version)
        return json(409, {
          error: 'stale',
          message: 'changed since',
          field: 'version',
          version: stored.version,
          changes: [],
        });
      stored = { ...stored, name: body.name, version: stored.version + 1 };
      return json(200, stored);
    });
    const actor = createActor(connectionsMachine, { input: { rest: fake.rest, tenantName: TENANT } }).start();
    actor.send({ type: 'records.set', records: [connection(1, 1), stored] });
    actor.send({ type: 'records.renameOpen', id: 2 });
    // Someone else renames it meanwhile.
    stored = { ...stored, name: 'Caixa 2', version: 2 };
    actor.send({ type: 'records.submit', name: 'Recepção' });
    await flush();
    expect(bodies[0]).toEqual({ tenantName: TENANT, id: 2, name: 'Recepção', version: 1 });
    expect(renameStep(actor.getSnapshot())).toBe('conflict');
    actor.send({ type: 'conflict.reapply' });
    await flush();
    expect(bodies[1]).toEqual({ tenantName: TENANT, id: 2, name: 'Recepção', version: 2 });
    expect(renameStep(actor.getSnapshot())).toBe('idle');
    expect(actor.getSnapshot().context.records.find((c) => c.id === 2)).toMatchObject({ name: 'Recepção', version: 3 });
  });
});
