import { createActor, type ActorRefFrom } from 'xstate';
import { ApiError } from '../../api/api-error';
import { GraphqlError } from '../../api/graphql-client';
import type { components } from '../../generated/openapi';
import { userFormMachine } from './user-form.machine';
import { usersMachine, type UsersEmitted, type UsersEvent } from './users.machine';
import type { UserRow } from './users-actors';
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
import { fakeServer, flush, gqlData, gqlError, json, operationOf, type SeenRequest } from '../test-support/fake-fetch';
import { userRow } from '../test-support/user-fixtures';

type RestUser = components['schemas']['User'];
const restUser = (row: UserRow): RestUser => ({
  ...row,
  role: { ...row.role, has_permission_routes: [] },
  tenantName: 'backoffice',
  origin_backoffice: false,
});
const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

describe('usersMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const machine = usersMachine.provide({
      actors: {
        loadUsers: heldPromise(),
        deleteUser: heldPromise(),
        setBlocked: heldPromise(),
        setTwoFactor: heldPromise(),
        disconnectUser: heldPromise(),
        renameUser: heldPromise(),
        changeEmail: heldPromise(),
        watchPresence: idleCallback(),
        // The real form with held calls: the walk delivers its completion (xstate.done.actor.userForm).
        userForm: userFormMachine.provide({
          actors: {
            loadFormOptions: heldPromise(),
            createUser: heldPromise(),
            updateUser: heldPromise(),
            removeLink: heldPromise(),
          },
        }),
      },
    });
    type Ev = GraphEvent<typeof usersMachine>;
    const user = userRow(2);
    const fail = (id: string) => errorEvent(id, new ApiError(500, null));
    const actions: Ev[] = [
      { type: 'users.delete', user },
      { type: 'users.confirm' },
      doneEvent('deleteUser'),
      fail('deleteUser'),
      { type: 'users.block', user, blocked: true },
      { type: 'users.block', user, blocked: false },
      doneEvent('setBlocked', userRow(2, { blocked: true })),
      fail('setBlocked'),
      { type: 'users.twoFactor', user, enabled: true },
      { type: 'users.twoFactor', user, enabled: false },
      doneEvent('setTwoFactor', true),
      fail('setTwoFactor'),
      { type: 'users.disconnect', user },
      doneEvent('disconnectUser'),
      fail('disconnectUser'),
      { type: 'users.renameOpen', user },
      { type: 'users.rename', name: 'Novo' },
      { type: 'users.rename', name: '  ' },
      doneEvent('renameUser', userRow(2, { name: 'Novo' })),
      fail('renameUser'),
      { type: 'users.emailOpen', user },
      { type: 'users.changeEmail', email: 'novo@demo.local' },
      { type: 'users.changeEmail', email: '' },
      doneEvent('changeEmail', userRow(2, { email: 'novo@demo.local' })),
      fail('changeEmail'),
      { type: 'users.create' },
      { type: 'users.edit', user, view: 'instances' },
      doneEvent('userForm', userRow(9)),
      { type: 'users.close' },
    ];
    const list: Ev[] = [
      doneEvent('loadUsers', [userRow(1), user]),
      errorEvent('loadUsers', new GraphqlError(403, [{ message: 'Forbidden', extensions: { code: 'FORBIDDEN' } }])),
      { type: 'users.reload' },
      { type: 'users.presence', userId: 2, isConnected: true },
      { type: 'users.online', ids: [1] },
    ];
    const report = await exploreCoverage({
      machine,
      input: () => ({ execute: unused.execute, rest: unused.rest }),
      events: [...list, ...actions],
      simpleScenarios: [
        { events: list },
        { prefix: [list[0] as Ev], events: actions.slice(0, 16).concat(actions.slice(-1)) },
        { prefix: [list[0] as Ev], events: actions.slice(16) },
      ],
    });
    assertFullCoverage(report);
    console.info(`usersMachine: ${formatCoverage(report)}`);
  });
});

describe('usersMachine: against the contracts', () => {
  const two = userRow(2, { isConnected: true });

  function setup(respond: (request: SeenRequest) => Response | Promise<Response> | undefined = () => undefined) {
    const fake = fakeServer((request) => {
      const answer = respond(request);
      if (answer) return answer;
      const op = operationOf(request);
      if (op?.name === 'users') return gqlData({ users: [userRow(1), two] });
      throw new Error(`unexpected ${request.method} ${request.path} ${op?.name ?? ''}`);
    });
    const actor = createActor(usersMachine, {
      input: { execute: fake.execute, rest: fake.rest, presenceIntervalMs: 0 },
    }).start();
    const outcomes: UsersEmitted[] = [];
    actor.on('outcome', (outcome) => outcomes.push(outcome));
    const send = (event: UsersEvent) => actor.send(event);
    return { fake, actor, send, outcomes, ctx: () => actor.getSnapshot().context };
  }

  it('lists through GraphQL users; a failure is an empty list that says it failed', async () => {
    const ok = setup();
    await flush();
    expect(ok.ctx().users.map((u) => u.id)).toEqual([1, 2]);
    expect(ok.actor.getSnapshot().matches({ list: 'ready', dialog: 'idle' })).toBe(true);
    const ko = setup((r) => (operationOf(r)?.name === 'users' ? gqlError('FORBIDDEN', undefined, 403) : undefined));
    await flush();
    expect(ko.actor.getSnapshot().matches({ list: 'failed' })).toBe(true);
    expect(ko.ctx().users).toEqual([]);
    expect(ko.ctx().listError).toEqual({ key: 'users.errors.load', reason: 'apiErrors.forbidden' });
  });

  it('deletes only after confirmation (GraphQL deleteUser) and drops the row', async () => {
    const t = setup((r) => (operationOf(r)?.name === 'deleteUser' ? gqlData({ deleteUser: true }) : undefined));
    await flush();
    t.send({ type: 'users.delete', user: two });
    expect(t.fake.seen.some((r) => operationOf(r)?.name === 'deleteUser')).toBe(false);
    t.send({ type: 'users.confirm' });
    await flush();
    expect(t.fake.seen.map(operationOf).find((op) => op?.name === 'deleteUser')?.variables).toEqual({ id: 2 });
    expect(t.ctx().users.map((u) => u.id)).toEqual([1]);
    expect(t.outcomes).toEqual([
      {
        type: 'outcome',
        action: 'delete',
        ok: true,
        toast: { variant: 'success', title: { key: 'users.notices.deleted' }, description: two.name },
      },
    ]);
  });

  it('blocks and unblocks with PATCH /api/users/{id}; a failed unblock says so', async () => {
    let status = 200;
    const t = setup((r) =>
      r.method === 'PATCH' && r.path === '/api/users/2'
        ? status === 200
          ? json(200, restUser(userRow(2, { blocked: (r.body as { blocked: boolean }).blocked })))
          : json(status, { message: 'Not found' })
        : undefined,
    );
    await flush();
    t.send({ type: 'users.block', user: two, blocked: true });
    // Blocking asks first.
    expect(t.actor.getSnapshot().matches({ dialog: { open: 'confirmingBlock' } })).toBe(true);
    t.send({ type: 'users.confirm' });
    await flush();
    expect(t.fake.seen.at(-1)?.body).toEqual({ blocked: true });
    expect(t.ctx().users.find((u) => u.id === 2)?.blocked).toBe(true);
    expect(t.outcomes.map((o) => [o.action, o.ok])).toEqual([['block', true]]);
    status = 404;
    t.send({ type: 'users.block', user: two, blocked: false });
    await flush();
    expect(t.fake.seen.at(-1)?.body).toEqual({ blocked: false });
    expect(t.outcomes.at(-1)).toEqual({
      type: 'outcome',
      action: 'unblock',
      ok: false,
      toast: {
        variant: 'error',
        title: { key: 'users.errors.unblock' },
        description: { key: 'apiErrors.notFound' },
      },
    });
    expect(t.ctx().actionError).toEqual({ key: 'users.errors.unblock', reason: 'apiErrors.notFound' });
  });

  it('toggles two-factor with PATCH /api/user-settings/{id}', async () => {
    const t = setup((r) =>
      r.path === '/api/user-settings/2' ? json(200, { user_id: 2, two_factor_enabled: true }) : undefined,
    );
    await flush();
    t.send({ type: 'users.twoFactor', user: two, enabled: true });
    await flush();
    expect(t.fake.seen.at(-1)?.method).toBe('PATCH');
    expect(t.fake.seen.at(-1)?.body).toEqual({ two_factor_enabled: true });
    expect(t.ctx().users.find((u) => u.id === 2)?.twoFactorEnabled).toBe(true);
  });

  it('disconnects with GraphQL disconnectUser and shows the user offline', async () => {
    const t = setup((r) => (operationOf(r)?.name === 'disconnectUser' ? gqlData({ disconnectUser: true }) : undefined));
    await flush();
    t.send({ type: 'users.disconnect', user: two });
    expect(t.fake.seen.some((r) => operationOf(r)?.name === 'disconnectUser')).toBe(false);
    t.send({ type: 'users.confirm' });
    await flush();
    expect(t.fake.seen.map(operationOf).find((op) => op?.name === 'disconnectUser')?.variables).toEqual({ user_id: 2 });
    expect(t.ctx().users.find((u) => u.id === 2)?.isConnected).toBe(false);
  });

  it('changes the name alone and the email alone: PUT bodies are exactly {name} and {email}', async () => {
    let stored = two;
    const t = setup((r) => {
      if (r.method !== 'PUT') return undefined;
      stored = { ...stored, ...(r.body as Partial<UserRow>) };
      return json(200, restUser(stored));
    });
    await flush();
    t.send({ type: 'users.renameOpen', user: two });
    t.send({ type: 'users.rename', name: '  Nome Novo ' });
    await flush();
    t.send({ type: 'users.emailOpen', user: two });
    t.send({ type: 'users.changeEmail', email: 'novo@demo.local' });
    await flush();
    expect(t.fake.seen.filter((r) => r.method === 'PUT').map((r) => [r.path, r.body])).toEqual([
      ['/api/users/2', { name: 'Nome Novo' }],
      ['/api/users/2', { email: 'novo@demo.local' }],
    ]);
    expect(t.ctx().users.find((u) => u.id === 2)).toMatchObject({ name: 'Nome Novo', email: 'novo@demo.local' });
    expect(t.outcomes.map((o) => [o.action, o.ok, o.toast?.title])).toEqual([
      ['rename', true, { key: 'users.notices.renamed' }],
      ['changeEmail', true, { key: 'users.notices.emailChanged' }],
    ]);
    t.send({ type: 'users.renameOpen', user: two });
    t.send({ type: 'users.rename', name: ' ' });
    expect(t.actor.getSnapshot().matches({ dialog: { open: 'renameForm' } })).toBe(true);
    expect(t.ctx().actionError).toEqual({ key: 'users.errors.rename', reason: 'apiErrors.validation' });
    expect(t.fake.seen.filter((r) => r.method === 'PUT')).toHaveLength(2);
  });

  it('updates presence live from the app bus, whatever it is doing', async () => {
    const t = setup((r) => (r.method === 'PATCH' ? new Promise<Response>(() => undefined) : undefined));
    await flush();
    t.send({ type: 'users.presence', userId: 1, isConnected: true });
    expect(t.ctx().users.find((u) => u.id === 1)?.isConnected).toBe(true);
    t.send({ type: 'users.block', user: two, blocked: false });
    t.send({ type: 'users.presence', userId: 2, isConnected: false });
    expect(t.actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(t.ctx().users.find((u) => u.id === 2)?.isConnected).toBe(false);
    const before = t.ctx().users;
    t.send({ type: 'users.presence', userId: 99, isConnected: true });
    expect(t.ctx().users).toEqual(before);
  });

  it("polls onlineUsers while the list is shown and sets every row's presence from it", async () => {
    vi.useFakeTimers();
    try {
      let online = [1];
      const fake = fakeServer((request) => {
        const op = operationOf(request);
        if (op?.name === 'users') return gqlData({ users: [userRow(1), two] });
        if (op?.name === 'onlineUsers') return gqlData({ onlineUsers: online.map((id) => userRow(id)) });
        return gqlError('FORBIDDEN', undefined, 403);
      });
      const actor = createActor(usersMachine, {
        input: { execute: fake.execute, rest: fake.rest, presenceIntervalMs: 1000 },
      }).start();
      const connected = () => actor.getSnapshot().context.users.map((u) => u.isConnected);
      const polls = () => fake.seen.filter((r) => operationOf(r)?.name === 'onlineUsers').length;
      await vi.advanceTimersByTimeAsync(0);
      expect(connected()).toEqual([false, true]);
      expect(polls()).toBe(0);
      await vi.advanceTimersByTimeAsync(1000);
      expect(polls()).toBe(1);
      expect(connected()).toEqual([true, false]);
      const before = actor.getSnapshot().context.users;
      await vi.advanceTimersByTimeAsync(1000);
      // Nothing changed: the same list, so the view does not re-render its rows.
      expect(actor.getSnapshot().context.users).toBe(before);
      online = [2];
      await vi.advanceTimersByTimeAsync(1000);
      expect(connected()).toEqual([false, true]);
      actor.stop();
      await vi.advanceTimersByTimeAsync(5000);
      expect(polls()).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('with a dialog open, a reload and presence updates leave it open with its input intact', async () => {
    let answer: Promise<Response> = new Promise<Response>(() => undefined);
    const t = setup((r) => (r.method === 'PUT' ? answer : undefined));
    await flush();
    t.send({ type: 'users.emailOpen', user: two });
    t.send({ type: 'users.changeEmail', email: '' });
    t.send({ type: 'users.reload' });
    expect(t.actor.getSnapshot().matches({ list: 'loading', dialog: { open: 'emailForm' } })).toBe(true);
    await flush();
    t.send({ type: 'users.presence', userId: 2, isConnected: false });
    t.send({ type: 'users.online', ids: [1] });
    expect(t.actor.getSnapshot().matches({ list: 'ready', dialog: { open: 'emailForm' } })).toBe(true);
    expect(t.ctx().target).toBe(two);
    expect(t.ctx().actionError).toEqual({ key: 'users.errors.changeEmail', reason: 'apiErrors.validation' });
    // A call in flight survives a reload too, and its answer still lands in the reloaded list.
    let resolve: (response: Response) => void = () => undefined;
    answer = new Promise<Response>((done) => {
      resolve = done;
    });
    t.send({ type: 'users.changeEmail', email: 'nova@demo.local' });
    await flush();
    t.send({ type: 'users.reload' });
    await flush();
    expect(t.actor.getSnapshot().matches({ list: 'ready', dialog: 'changingEmail' })).toBe(true);
    expect(t.ctx().pending).toEqual({ email: 'nova@demo.local' });
    resolve(json(200, restUser({ ...two, email: 'nova@demo.local' })));
    await flush();
    expect(t.ctx().users.find((u) => u.id === 2)?.email).toBe('nova@demo.local');
    expect(t.outcomes.map((o) => [o.action, o.ok])).toEqual([['changeEmail', true]]);
    expect(t.actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
  });

  it('keeps a refused quick edit open with its reason; other refusals close the dialog and toast why', async () => {
    const t = setup((r) =>
      r.method === 'PUT'
        ? json(409, { message: 'taken', field: 'email' })
        : r.path === '/api/user-settings/2'
          ? json(409, { message: 'not enrolled' })
          : undefined,
    );
    await flush();
    t.send({ type: 'users.emailOpen', user: two });
    t.send({ type: 'users.changeEmail', email: 'ana@demo.local' });
    await flush();
    expect(t.actor.getSnapshot().matches({ dialog: { open: 'emailForm' } })).toBe(true);
    expect(t.ctx().actionError).toEqual({ key: 'users.errors.changeEmail', reason: 'apiErrors.conflict' });
    expect(t.outcomes).toEqual([{ type: 'outcome', action: 'changeEmail', ok: false, toast: null }]);
    t.send({ type: 'users.close' });
    t.send({ type: 'users.twoFactor', user: two, enabled: true });
    await flush();
    expect(t.actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
    expect(t.outcomes.at(-1)).toEqual({
      type: 'outcome',
      action: 'twoFactorOn',
      ok: false,
      toast: {
        variant: 'error',
        title: { key: 'users.errors.twoFactor' },
        description: { key: 'users.twoFactor.notEnrolled', params: { name: two.name } },
      },
    });
  });

  it('opens the form as child userForm and puts the saved user in the list', async () => {
    const t = setup((r) => {
      const op = operationOf(r);
      if (op?.name === 'roles')
        return gqlData({ roles: [{ id: 2, name: 'operador', display_name: 'Operador', has_permission_routes: [] }] });
      if (op?.name === 'departments') return gqlData({ departments: [] });
      if (op?.name === 'instances') return gqlData({ instances: [] });
      if (op?.name === 'newUser') return gqlData({ newUser: userRow(9) });
      return undefined;
    });
    await flush();
    t.send({ type: 'users.create' });
    await flush();
    const form = t.actor.getSnapshot().children.userForm as ActorRefFrom<typeof userFormMachine> | undefined;
    expect(form?.getSnapshot().value).toBe('ready');
    for (const [field, value] of [
      ['username', 'nova'],
      ['name', 'Nova'],
      ['email', 'nova@demo.local'],
      ['password', 'Fa#rm@c1a-Boa'],
    ] as const) {
      form?.send({ type: 'users.form.field', field, value });
    }
    form?.send({ type: 'users.form.role', roleId: 2 });
    form?.send({ type: 'users.form.submit' });
    await flush();
    expect(t.actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
    expect(t.ctx().users.map((u) => u.id)).toEqual([1, 2, 9]);
    expect(t.outcomes).toEqual([
      {
        type: 'outcome',
        action: 'create',
        ok: true,
        toast: { variant: 'success', title: { key: 'users.notices.created' } },
      },
    ]);
    t.send({ type: 'users.edit', user: two });
    expect(t.actor.getSnapshot().children.userForm).toBeDefined();
    t.send({ type: 'users.close' });
    expect(t.actor.getSnapshot().children.userForm).toBeUndefined();
  });
});
