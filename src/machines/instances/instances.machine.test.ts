import { createActor, SimulatedClock } from 'xstate';
import { ApiError } from '../../api/api-error';
import { createAppBus } from '../shared/app-bus';
import type { Instance } from './instances-actors';
import { connection, instance, instancesApi, TENANT } from '../test-support/instances-fixtures';
import { instancesMachine, selectListStatus, type InstancesContext } from './instances.machine';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
  idleCallback,
  type GraphEvent,
} from '../test-support/graph-coverage';
import { deferred, fakeServer, flush, json, type Responder } from '../test-support/fake-fetch';

const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

describe('instancesMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const machine = instancesMachine.provide({
      actors: {
        loadChannels: heldPromise(),
        pollInstances: heldPromise(),
        createInstance: heldPromise(),
        updateInstance: heldPromise(),
        syncInstance: heldPromise(),
        watchInstances: idleCallback(),
        loadInstance: heldPromise(),
        checkRemote: heldPromise(),
        watchTarget: idleCallback(),
      },
    });
    type Ev = GraphEvent<typeof machine>;
    const idle1 = instance(1);
    const syncing2 = instance(2, { status: 'syncing', syncProgress: 40, syncedMessages: 400, totalMessages: 1000 });
    const fields = { name: idle1.name, activated: true, isOfficial: false, isUnlimited: false };
    const list: Ev[] = [
      doneEvent('loadChannels', { instances: [idle1, syncing2], connections: [connection(1, 1)] }),
      errorEvent('loadChannels', new ApiError(503, null)),
      { type: 'instances.reload' },
      { type: 'instances.reconnected' },
      // A known row (heard live: no poll at the next tick) and an unknown one (reload).
      { type: 'instances.live', instance: idle1 },
      { type: 'instances.live', instance: instance(9) },
      doneEvent('pollInstances', [idle1, syncing2]),
      errorEvent('pollInstances', new ApiError(500, null)),
    ];
    const dialogs: Ev[] = [
      { type: 'instances.createOpen' },
      { type: 'instances.create', draft: { name: 'Loja 3', isOfficial: true, isUnlimited: false } },
      { type: 'instances.create', draft: { name: '   ', isOfficial: true, isUnlimited: false } },
      // Answers are existing rows so the walk's context stays small.
      doneEvent('createInstance', idle1),
      errorEvent('createInstance', new ApiError(409, { message: 'exists', field: 'name' })),
      { type: 'instances.updateOpen', id: 1 },
      { type: 'instances.update', fields },
      { type: 'instances.update', fields: { ...fields, name: 'Loja Centro' } },
      { type: 'instances.update', fields: { ...fields, name: '' } },
      doneEvent('updateInstance', idle1),
      errorEvent(
        'updateInstance',
        new ApiError(400, { message: 'Validation failed', errors: [{ field: 'body/name', message: 'blank' }] }),
      ),
      { type: 'instances.syncOpen', id: 1 },
      { type: 'instances.sync', daysAgo: 30, unlimited: false },
      { type: 'instances.sync', daysAgo: 0, unlimited: false },
      doneEvent('syncInstance', idle1),
      errorEvent('syncInstance', new ApiError(409, { message: 'running', field: 'id' })),
      { type: 'instances.close' },
    ];
    // The edit dialog's conflict notice (src/machines/shared/conflict.ts).
    const renamed = { ...idle1, name: 'Loja Sul', version: 2 };
    const stale = { error: 'stale', message: 'changed since', field: 'version', version: 2, changes: [] };
    const typed: Ev = { type: 'instances.updateDraft', fields: { ...fields, name: 'Loja Centro' } };
    const conflicts: Ev[] = [
      typed,
      // A blank name: the reapply goes back to the dialog.
      { type: 'instances.updateDraft', fields: { ...fields, name: '' } },
      errorEvent('updateInstance', new ApiError(409, stale)),
      { type: 'conflict.remote', id: 41, version: null },
      // The dialog's own version: not news.
      { type: 'conflict.remote', id: 42, version: 1 },
      doneEvent('checkRemote', { record: renamed, version: 2, newer: true, changes: [] }),
      doneEvent('checkRemote', { record: idle1, version: 1, newer: false, changes: [] }),
      errorEvent('checkRemote', new TypeError('offline')),
      { type: 'conflict.reapply' },
      { type: 'conflict.discard' },
      { type: 'conflict.dismiss' },
      doneEvent('loadInstance', renamed),
      errorEvent('loadInstance', new ApiError(503, null)),
    ];
    const opened: Ev[] = [list[0] as Ev, { type: 'instances.updateOpen', id: 1 }];
    const loaded = list[0] as Ev;
    const report = await exploreCoverage({
      machine,
      input: () => ({ rest: unused.rest, bus: createAppBus(), tenantName: TENANT, pollMs: 1000, staff: true }),
      // The regions are independent: list events are explored while no dialog is open and dialogs
      // once the list is ready, so the walk covers each region without their whole product.
      events: (snapshot) => {
        const dialogOpen = !snapshot.matches({ action: 'idle' });
        const listReady = snapshot.matches({ list: { ready: 'watching' } });
        return [...(dialogOpen ? [] : list), ...(listReady ? [...dialogs, ...conflicts] : [])];
      },
      simpleScenarios: [
        { events: [loaded, list[1] as Ev, list[2] as Ev] },
        { prefix: [loaded], events: [list[4] as Ev, list[6] as Ev, list[7] as Ev, list[3] as Ev] },
        { prefix: [loaded], events: [list[5] as Ev, list[4] as Ev, loaded] },
        { prefix: [loaded], events: dialogs.slice(0, 5).concat(dialogs.slice(-1)) },
        { prefix: [loaded], events: dialogs.slice(5, 11).concat(dialogs.slice(-1)) },
        { prefix: [loaded], events: dialogs.slice(11) },
        // A stale update, then both choices.
        {
          prefix: [...opened, typed, { type: 'instances.update', fields: { ...fields, name: 'Loja Centro' } }],
          events: [conflicts[2] as Ev, conflicts[3] as Ev, conflicts[1] as Ev, ...conflicts.slice(8)],
        },
        // A change announced while something is typed, or while nothing is.
        { prefix: [...opened, typed], events: [...conflicts.slice(3, 8), dialogs[7] as Ev, conflicts[10] as Ev] },
        { prefix: opened, events: [...conflicts.slice(3, 8), conflicts[10] as Ev] },
      ],
      // Guards read which rows exist and sync, whether an event was heard and the dialog's target;
      // the rows changed during a request decide what its answer leaves.
      serializeContext: (context: InstancesContext) => [
        context.instances.map((row) => `${row.id}:${row.status}`),
        Object.values(context.recent).map((row) => `${row.id}:${row.status}`),
        context.heardLive,
        context.target?.id ?? null,
        context.version,
        context.draft?.name ?? null,
        context.remoteIds.length > 0,
        context.conflict !== null,
      ],
    });
    assertFullCoverage(report);
    console.info(`instancesMachine: ${formatCoverage(report)}`);
  });
});

/** The machine over the stateful fake, a real app bus and a simulated clock (polls every 1000 ms). */
function start(respond: Responder) {
  const server = fakeServer(respond);
  const bus = createAppBus();
  const clock = new SimulatedClock();
  const actor = createActor(instancesMachine, {
    input: { rest: server.rest, bus, tenantName: TENANT, pollMs: 1000 },
    clock,
  }).start();
  const publish = (data: Instance, tenantName = TENANT) =>
    bus.publish({ name: 'instanceUpdated', data, tenantName, sentAt: new Date().toISOString() });
  const gets = (path: string) => server.seen.filter((r) => r.method === 'GET' && r.path === path);
  const said = () => actor.getSnapshot().context.announcement;
  return { server, bus, clock, actor, publish, gets, said };
}

const syncing = (id: number, progress: number, over: Partial<Instance> = {}) =>
  instance(id, {
    status: 'syncing',
    syncProgress: progress,
    syncedMessages: progress * 10,
    totalMessages: 1000,
    ...over,
  });

describe('instancesMachine: list and live rows', () => {
  it('loads the instances and connections of its tenant', async () => {
    const state = { instances: [instance(1), instance(2)], connections: [connection(1, 1)] };
    const { actor, gets } = start(instancesApi(state));
    expect(selectListStatus(actor.getSnapshot())).toBe('loading');
    await flush();
    expect(gets('/api/instance')[0]?.query.get('tenantName')).toBe(TENANT);
    expect(gets('/api/connection')[0]?.query.get('tenantName')).toBe(TENANT);
    expect(selectListStatus(actor.getSnapshot())).toBe('ready');
    expect(actor.getSnapshot().context).toMatchObject({
      instances: state.instances,
      connections: state.connections,
      loaded: true,
      listError: null,
    });
  });

  it('says why a load failed and loads again on reload', async () => {
    let down = true;
    const { actor } = start(
      instancesApi(
        { instances: [instance(1)], connections: [] },
        { connections: () => (down ? json(503, { status: 'unavailable', message: 'down' }) : undefined) },
      ),
    );
    await flush();
    expect(selectListStatus(actor.getSnapshot())).toBe('error');
    expect(actor.getSnapshot().context.listError).toEqual({
      key: 'instances.errors.load',
      reason: 'apiErrors.unavailable',
    });
    down = false;
    actor.send({ type: 'instances.reload' });
    await flush();
    expect(selectListStatus(actor.getSnapshot())).toBe('ready');
    expect(actor.getSnapshot().context.instances).toHaveLength(1);
  });

  it('replaces a row from its event, ignores other tenants, reloads for an unknown id', async () => {
    const state = { instances: [instance(1), instance(2)], connections: [connection(1, 1)] };
    const { actor, publish, gets } = start(instancesApi(state));
    await flush();
    publish(instance(1, { name: 'Balcão', activated: false }));
    expect(actor.getSnapshot().context.instances[0]).toMatchObject({ id: 1, name: 'Balcão', activated: false });
    expect(actor.getSnapshot().context.connections[0]?.instance_name).toBe('Balcão');
    publish(instance(2, { name: 'Outro tenant', tenantName: 'drogaria-sul' }), 'drogaria-sul');
    expect(actor.getSnapshot().context.instances[1]?.name).toBe('WhatsApp Loja 2');
    expect(gets('/api/instance')).toHaveLength(1);
    state.instances = [...state.instances, instance(3)];
    publish(instance(3));
    expect(selectListStatus(actor.getSnapshot())).toBe('loading');
    await flush();
    expect(gets('/api/instance')).toHaveLength(2);
    expect(actor.getSnapshot().context.instances.map((row) => row.id)).toEqual([1, 2, 3]);
  });

  it('announces a sync at its start, at 25/50/75 % and at its end, not at every event', async () => {
    const { publish, said } = start(instancesApi({ instances: [instance(1)], connections: [] }));
    await flush();
    const heard: string[] = [];
    const note = () => {
      const a = said();
      if (a && heard.length < a.seq) heard.push(`${a.key} ${a.params.progress}`);
    };
    for (const progress of [0, 10, 20, 26, 40, 51, 60, 80, 99]) {
      publish(syncing(1, progress));
      note();
    }
    publish(instance(1, { status: 'done', syncProgress: 100, syncedMessages: 1000, totalMessages: 1000 }));
    note();
    expect(heard).toEqual([
      'instances.live.started 0',
      'instances.live.progress 25',
      'instances.live.progress 50',
      'instances.live.progress 75',
      'instances.live.done 100',
    ]);
    publish(syncing(1, 0));
    publish(instance(1, { status: 'failed', syncProgress: 30 }));
    expect(said()).toMatchObject({ key: 'instances.live.failed', params: { name: 'WhatsApp Loja 1' }, seq: 7 });
  });

  it('keeps events received while a load is in flight over its older answer', async () => {
    const held = deferred<Response>();
    let hold = false;
    const { actor, publish } = start(
      instancesApi({ instances: [syncing(1, 40)], connections: [] }, { list: () => (hold ? held.promise : undefined) }),
    );
    await flush();
    hold = true;
    actor.send({ type: 'instances.reconnected' });
    await flush();
    publish(instance(1, { status: 'done', syncProgress: 100, syncedMessages: 1000, totalMessages: 1000 }));
    held.resolve(json(200, [syncing(1, 90)]));
    await flush();
    expect(selectListStatus(actor.getSnapshot())).toBe('ready');
    expect(actor.getSnapshot().context.instances[0]?.status).toBe('done');
  });

  it('restarts a load in flight on reload (the older request is aborted)', async () => {
    const { actor, gets } = start(instancesApi({ instances: [instance(1)], connections: [] }));
    actor.send({ type: 'instances.reload' });
    await flush();
    expect(gets('/api/instance')).toHaveLength(2);
    expect(gets('/api/instance')[0]?.signal.aborted).toBe(true);
    expect(selectListStatus(actor.getSnapshot())).toBe('ready');
  });

  it('refetches both lists after the socket reconnects (missed events are lost)', async () => {
    const state = { instances: [instance(1)], connections: [] as ReturnType<typeof connection>[] };
    const { actor, gets } = start(instancesApi(state));
    await flush();
    state.instances = [instance(1, { status: 'done', syncProgress: 100 })];
    state.connections = [connection(7, 1)];
    actor.send({ type: 'instances.reconnected' });
    await flush();
    expect(gets('/api/instance')).toHaveLength(2);
    expect(gets('/api/connection')).toHaveLength(2);
    expect(actor.getSnapshot().context).toMatchObject({ instances: state.instances, connections: state.connections });
  });

  it('polls a running sync only while no event arrives, and stops when it ends', async () => {
    const state = { instances: [syncing(1, 10)], connections: [] };
    let failPoll = false;
    const { actor, clock, publish, gets } = start(
      instancesApi(state, { list: () => (failPoll ? json(500, { message: 'boom' }) : undefined) }),
    );
    await flush();
    publish(syncing(1, 20));
    clock.increment(1000);
    await flush();
    expect(gets('/api/instance')).toHaveLength(1);
    state.instances = [syncing(1, 60)];
    clock.increment(1000);
    await flush();
    expect(gets('/api/instance')).toHaveLength(2);
    expect(actor.getSnapshot().context.instances[0]?.syncProgress).toBe(60);
    expect(actor.getSnapshot().context.announcement).toMatchObject({
      key: 'instances.live.progress',
      params: { progress: 50 },
    });
    failPoll = true;
    clock.increment(1000);
    await flush();
    expect(gets('/api/instance')).toHaveLength(3);
    expect(actor.getSnapshot().context.instances[0]?.syncProgress).toBe(60);
    failPoll = false;
    state.instances = [instance(1, { status: 'done', syncProgress: 100, syncedMessages: 1000, totalMessages: 1000 })];
    clock.increment(1000);
    await flush();
    expect(actor.getSnapshot().context.instances[0]?.status).toBe('done');
    clock.increment(5000);
    await flush();
    expect(gets('/api/instance')).toHaveLength(4);
  });
});
