import { createActor } from 'xstate';
import { createAppBus } from '../shared/app-bus';
import { connection, instance, instancesApi, TENANT } from '../test-support/instances-fixtures';
import {
  instancesMachine,
  selectBusy,
  selectDialog,
  unsavedInstanceFields,
  type InstancesEmitted,
} from './instances.machine';
import { deferred, fakeServer, flush, json, type Responder } from '../test-support/fake-fetch';

/** The machine over the stateful fake and a real app bus, loaded. */
async function started(respond: Responder, staff = true) {
  const server = fakeServer(respond);
  const actor = createActor(instancesMachine, {
    input: { rest: server.rest, bus: createAppBus(), tenantName: TENANT, staff },
  }).start();
  const outcomes: InstancesEmitted[] = [];
  /** Each success's toast title: its notice key and the instance's name. */
  const notices: { notice: string; name: unknown }[] = [];
  actor.on('outcome', (outcome) => {
    outcomes.push(outcome);
    const title = outcome.toast?.title;
    if (typeof title === 'object') notices.push({ notice: title.key, name: title.params?.['name'] });
  });
  await flush();
  const posts = (path: string) => server.seen.filter((r) => r.method === 'POST' && r.path === path);
  return { actor, notices, outcomes, posts, context: () => actor.getSnapshot().context };
}

const fields = { name: 'WhatsApp Loja 1', activated: true, isOfficial: false, isUnlimited: false };

describe('instancesMachine: create', () => {
  it('refuses a blank name locally, shows a duplicate by field, adds the created row', async () => {
    let duplicate = true;
    const state = { instances: [instance(1)], connections: [connection(1, 1)] };
    const { actor, outcomes, posts, context } = await started(
      instancesApi(state, {
        create: () =>
          duplicate ? json(409, { message: 'An instance with this name already exists', field: 'name' }) : undefined,
      }),
    );
    actor.send({ type: 'instances.createOpen' });
    expect(selectDialog(actor.getSnapshot())).toBe('create');
    actor.send({ type: 'instances.create', draft: { name: '   ', isOfficial: true, isUnlimited: false } });
    expect(context().fieldErrors).toEqual({ name: 'instances.errors.name' });
    expect(posts('/api/instance')).toHaveLength(0);
    actor.send({ type: 'instances.create', draft: { name: ' Loja Centro ', isOfficial: true, isUnlimited: true } });
    expect(selectBusy(actor.getSnapshot())).toBe(true);
    await flush();
    expect(context()).toMatchObject({
      actionError: { key: 'instances.errors.create', reason: 'instances.errors.nameTaken' },
      fieldErrors: { name: 'apiErrors.fieldTaken' },
    });
    expect(selectDialog(actor.getSnapshot())).toBe('create');
    duplicate = false;
    actor.send({ type: 'instances.create', draft: { name: ' Loja Centro ', isOfficial: true, isUnlimited: true } });
    await flush();
    expect(posts('/api/instance').map((r) => r.body)).toEqual([
      { name: 'Loja Centro', isOfficial: true, isUnlimited: true, tenantName: TENANT },
      { name: 'Loja Centro', isOfficial: true, isUnlimited: true, tenantName: TENANT },
    ]);
    expect(selectDialog(actor.getSnapshot())).toBeNull();
    expect(context().instances.map((row) => row.name)).toEqual(['WhatsApp Loja 1', 'Loja Centro']);
    expect(outcomes).toEqual([
      {
        type: 'outcome',
        action: 'create',
        ok: true,
        toast: { variant: 'success', title: { key: 'instances.notices.created', params: { name: 'Loja Centro' } } },
      },
    ]);
  });

  it('maps the fields of a 400 body to the form', async () => {
    const { actor, context } = await started(
      instancesApi(
        { instances: [], connections: [] },
        {
          create: () =>
            json(400, { message: 'Validation failed', errors: [{ field: 'body/name', message: 'must not be blank' }] }),
        },
      ),
    );
    actor.send({ type: 'instances.createOpen' });
    actor.send({ type: 'instances.create', draft: { name: 'x', isOfficial: false, isUnlimited: false } });
    await flush();
    expect(context()).toMatchObject({
      actionError: { key: 'instances.errors.create', reason: 'apiErrors.validation' },
      fieldErrors: { name: 'apiErrors.fieldInvalid' },
    });
    actor.send({ type: 'instances.close' });
    expect(context()).toMatchObject({ actionError: null, fieldErrors: {} });
  });

  it('keeps a dialog and its call through a list reload', async () => {
    const held = deferred<Response>();
    const { actor, notices } = await started(
      instancesApi({ instances: [instance(1)], connections: [] }, { create: () => held.promise }),
    );
    actor.send({ type: 'instances.createOpen' });
    actor.send({ type: 'instances.create', draft: { name: 'Loja 2', isOfficial: false, isUnlimited: false } });
    actor.send({ type: 'instances.reconnected' });
    await flush();
    expect(actor.getSnapshot().matches({ action: 'creating' })).toBe(true);
    held.resolve(json(201, instance(2, { name: 'Loja 2' })));
    await flush();
    expect(notices.map((n) => n.notice)).toEqual(['instances.notices.created']);
    expect(actor.getSnapshot().context.instances.map((row) => row.id)).toEqual([1, 2]);
  });
});

describe('instancesMachine: update', () => {
  it('sends only what changed, and closes without a call when nothing did', async () => {
    const state = { instances: [instance(1), instance(2)], connections: [connection(1, 1)] };
    const { actor, notices, posts, context } = await started(instancesApi(state));
    actor.send({ type: 'instances.updateOpen', id: 99 });
    expect(selectDialog(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'instances.updateOpen', id: 1 });
    expect(context().target?.id).toBe(1);
    actor.send({ type: 'instances.update', fields: { ...fields, name: ' WhatsApp Loja 1 ' } });
    expect(selectDialog(actor.getSnapshot())).toBeNull();
    expect(posts('/api/instance/update')).toHaveLength(0);
    actor.send({ type: 'instances.updateOpen', id: 1 });
    actor.send({ type: 'instances.update', fields: { ...fields, name: '' } });
    expect(context().fieldErrors).toEqual({ name: 'instances.errors.name' });
    actor.send({ type: 'instances.update', fields: { ...fields, name: 'Balcão', activated: false, isOfficial: true } });
    await flush();
    expect(posts('/api/instance/update').map((r) => r.body)).toEqual([
      { id: 1, tenantName: TENANT, name: 'Balcão', activated: false, isOfficial: true, version: 1 },
    ]);
    expect(context().instances[0]).toMatchObject({ name: 'Balcão', activated: false, isOfficial: true });
    expect(context().connections[0]?.instance_name).toBe('Balcão');
    expect(notices.map((n) => [n.notice, n.name])).toEqual([['instances.notices.updated', 'Balcão']]);
  });

  it('keeps the dialog open with the reason when the server refuses', async () => {
    const { actor, context } = await started(
      instancesApi(
        { instances: [instance(1)], connections: [] },
        { update: () => json(404, { message: 'Instance not found' }) },
      ),
    );
    actor.send({ type: 'instances.updateOpen', id: 1 });
    actor.send({ type: 'instances.update', fields: { ...fields, activated: false } });
    await flush();
    expect(selectDialog(actor.getSnapshot())).toBe('update');
    expect(context().actionError).toEqual({ key: 'instances.errors.update', reason: 'apiErrors.notFound' });
  });
});

describe('instancesMachine: billing flags are staff only (server/src/instances/service.ts)', () => {
  it('a customer creates with both flags off, and a flag turned on is refused with why, before any call', async () => {
    const state = { instances: [instance(1)], connections: [] };
    const { actor, posts, context } = await started(instancesApi(state), false);
    actor.send({ type: 'instances.createOpen' });
    actor.send({ type: 'instances.create', draft: { name: 'Loja Norte', isOfficial: true, isUnlimited: false } });
    expect(selectDialog(actor.getSnapshot())).toBe('create');
    expect(context().actionError).toEqual({ key: 'instances.errors.create', reason: 'access.staffBillingFlags' });
    actor.send({ type: 'instances.create', draft: { name: 'Loja Norte', isOfficial: false, isUnlimited: true } });
    expect(context().actionError?.reason).toBe('access.staffBillingFlags');
    expect(posts('/api/instance')).toHaveLength(0);
    actor.send({ type: 'instances.create', draft: { name: 'Loja Norte', isOfficial: false, isUnlimited: false } });
    await flush();
    expect(posts('/api/instance').map((r) => r.body)).toEqual([
      { name: 'Loja Norte', isOfficial: false, isUnlimited: false, tenantName: TENANT },
    ]);
  });

  it("a customer edits an official instance's name and keeps its flags; changing a flag is refused", async () => {
    const state = { instances: [instance(1, { isOfficial: true, isUnlimited: true })], connections: [] };
    const { actor, posts, context } = await started(instancesApi(state), false);
    actor.send({ type: 'instances.updateOpen', id: 1 });
    const kept = { name: 'Balcão', activated: true, isOfficial: true, isUnlimited: true };
    actor.send({ type: 'instances.update', fields: { ...kept, isUnlimited: false } });
    expect(context().actionError).toEqual({ key: 'instances.errors.update', reason: 'access.staffBillingFlags' });
    expect(posts('/api/instance/update')).toHaveLength(0);
    actor.send({ type: 'instances.update', fields: kept });
    await flush();
    // Only what changed is sent: the flags, unchanged, are not.
    expect(posts('/api/instance/update').map((r) => r.body)).toEqual([
      { id: 1, tenantName: TENANT, name: 'Balcão', version: 1 },
    ]);
    expect(selectDialog(actor.getSnapshot())).toBeNull();
  });
});

describe('instancesMachine: sync', () => {
  it('checks the days locally, starts a sync (days or unlimited) and shows the row syncing', async () => {
    const state = { instances: [instance(1), instance(2)], connections: [] };
    const { actor, notices, posts, context } = await started(instancesApi(state));
    actor.send({ type: 'instances.syncOpen', id: 1 });
    expect(selectDialog(actor.getSnapshot())).toBe('sync');
    for (const daysAgo of [0, 3651, 1.5, null]) {
      actor.send({ type: 'instances.sync', daysAgo, unlimited: false });
      expect(context().fieldErrors).toEqual({ daysAgo: 'instances.errors.daysAgo' });
    }
    actor.send({ type: 'instances.sync', daysAgo: 30, unlimited: false });
    await flush();
    expect(context().instances[0]).toMatchObject({ status: 'syncing', syncProgress: 0 });
    actor.send({ type: 'instances.syncOpen', id: 2 });
    actor.send({ type: 'instances.sync', daysAgo: 30, unlimited: true });
    await flush();
    expect(posts('/api/instance/syncMessages').map((r) => r.body)).toEqual([
      { id: 1, tenantName: TENANT, daysAgo: 30, unlimitedSync: false },
      { id: 2, tenantName: TENANT, daysAgo: null, unlimitedSync: true },
    ]);
    expect(notices.map((n) => n.notice)).toEqual(['instances.notices.syncStarted', 'instances.notices.syncStarted']);
    // A running sync cannot be started again from the panel.
    actor.send({ type: 'instances.syncOpen', id: 1 });
    expect(selectDialog(actor.getSnapshot())).toBeNull();
  });

  it('says a sync is already running on a 409', async () => {
    const { actor, context } = await started(
      instancesApi(
        { instances: [instance(1)], connections: [] },
        { sync: () => json(409, { message: 'A sync of this instance is already running', field: 'id' }) },
      ),
    );
    actor.send({ type: 'instances.syncOpen', id: 1 });
    actor.send({ type: 'instances.sync', daysAgo: 7, unlimited: false });
    await flush();
    expect(selectDialog(actor.getSnapshot())).toBe('sync');
    expect(context()).toMatchObject({
      actionError: { key: 'instances.errors.sync', reason: 'instances.errors.syncRunning' },
      fieldErrors: {},
    });
  });
});

describe('instancesMachine: the edit dialog’s conflict notice', () => {
  it('sends the version it opened; a stale answer opens the notice and reapply sends the typed fields with the new one', async () => {
    let stored = instance(1);
    const bodies: Record<string, unknown>[] = [];
    const server = fakeServer((r) => {
      if (r.method === 'GET' && r.path === '/api/instance') return json(200, [stored]);
      if (r.method === 'GET' && r.path === '/api/connection') return json(200, []);
      if (r.path === '/api/audit') return json(200, { data: [], total: 0 });
      const body = r.body as Record<string, unknown> & { version?: number };
      bodies.push(body);
      if (body.version !== stored.version)
        return json(409, {
          error: 'stale',
          message: 'changed since',
          field: 'version',
          version: stored.version,
          changes: [
            {
              id: 70,
              at: '2026-11-28T10:00:00.000Z',
              actor_name: 'Outra Pessoa',
              actor_staff: false,
              operation: 'instance.update',
              changes: [{ field: 'activated', before: 'true', after: 'false' }],
            },
          ],
        });
      const { version: _sent, id: _id, tenantName: _tenant, ...changes } = body;
      stored = { ...stored, ...changes, version: stored.version + 1 } as typeof stored;
      return json(200, stored);
    });
    const actor = createActor(instancesMachine, {
      input: { rest: server.rest, bus: createAppBus(), tenantName: TENANT, staff: true },
    }).start();
    await flush();
    actor.send({ type: 'instances.updateOpen', id: 1 });
    // Someone else deactivates it meanwhile.
    stored = { ...stored, activated: false, version: 2 };
    actor.send({ type: 'instances.update', fields: { ...fields, name: 'Balcão' } });
    await flush();
    expect(bodies[0]).toEqual({ id: 1, tenantName: TENANT, name: 'Balcão', version: 1 });
    let snapshot = actor.getSnapshot();
    expect(snapshot.matches({ action: { form: 'updateConflict' } })).toBe(true);
    expect(selectDialog(snapshot)).toBe('update');
    expect(snapshot.context.conflict?.changes[0]).toMatchObject({ actorName: 'Outra Pessoa' });
    expect(unsavedInstanceFields(snapshot.context)).toEqual([
      { field: 'name', before: '"WhatsApp Loja 1"', after: '"Balcão"' },
    ]);
    actor.send({ type: 'conflict.reapply' });
    await flush();
    // Only the user's field is laid over the instance as stored now: the deactivation stays.
    expect(bodies[1]).toEqual({ id: 1, tenantName: TENANT, name: 'Balcão', version: 2 });
    snapshot = actor.getSnapshot();
    expect(selectDialog(snapshot)).toBeNull();
    expect(stored).toMatchObject({ name: 'Balcão', activated: false, version: 3 });
  });

  it('discard reloads the instance as stored now and sends nothing more', async () => {
    let stored = instance(1);
    const server = fakeServer((r) => {
      if (r.method === 'GET' && r.path === '/api/instance') return json(200, [stored]);
      if (r.method === 'GET' && r.path === '/api/connection') return json(200, []);
      return json(409, { error: 'stale', message: 'changed since', field: 'version', version: 2, changes: [] });
    });
    const actor = createActor(instancesMachine, {
      input: { rest: server.rest, bus: createAppBus(), tenantName: TENANT, staff: true },
    }).start();
    await flush();
    actor.send({ type: 'instances.updateOpen', id: 1 });
    stored = { ...stored, name: 'Loja Sul', version: 2 };
    actor.send({ type: 'instances.update', fields: { ...fields, name: 'Balcão' } });
    await flush();
    actor.send({ type: 'conflict.discard' });
    await flush();
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().matches({ action: { form: 'update' } })).toBe(true);
    expect(context.target).toMatchObject({ name: 'Loja Sul', version: 2 });
    expect(context.version).toBe(2);
    expect(context.draft).toBeNull();
    expect(server.seen.filter((r) => r.method === 'POST')).toHaveLength(1);
  });
});
